import { lineMoney, type MoneyRates } from '../../domain/margin';
import { ApiError } from '../../domain/api-error';
import { formatCent, type Cent } from '../../domain/money';
import type { AdminDb } from '../db/database';
import { readOptionalSetting, readSetting } from '../settings/settings';

/**
 * The minimum margin (设置 `money.min_margin_bp`) judged on one order line: the sale converted at
 * today's rate, the fees off, and the purchase's cost off — the draft's cap, or what the last
 * collect says the goods now costs when that is more. Off when the operator set no minimum or no
 * exchange rate: a guard on a guessed rate would refuse or pass lines for a reason nobody set.
 */
export interface MarginGuard {
  rates: MoneyRates;
  minMarginBp: number;
}

/** The figures a refusal or a warning shows, all CNY cents except the basis points. */
export interface MarginFigures {
  sale_cny_cent: Cent;
  fees_cny_cent: Cent;
  cost_cny_cent: Cent;
  margin_cny_cent: Cent;
  /** null when the sale converts to ¥0 (a share of nothing) */
  margin_bp: number | null;
  min_margin_bp: number;
}

/** Below the minimum: its figures, or null figures when the sale is out of any real range. */
export interface MarginShortfall {
  figures: MarginFigures | null;
  message: string;
}

/** null: no minimum or no rate set, so no line is judged. */
export async function marginGuard(db: AdminDb): Promise<MarginGuard | null> {
  const minMarginBp = await readOptionalSetting(db, 'money.min_margin_bp');
  if (minMarginBp === null) return null;
  const ratePpm = await readOptionalSetting(db, 'money.twd_to_cny_rate_ppm');
  if (ratePpm === null) return null;
  return {
    minMarginBp,
    rates: {
      ratePpm,
      feeBp: await readSetting(db, 'money.platform_fee_bp'),
      lineFeeCnyCent: await readSetting(db, 'money.line_fee_cny_cent'),
    },
  };
}

/**
 * The same for what only shows (a task's 草稿提示, 需处理, 订单): a setting stored out of range
 * refuses a draft (SETTING_INVALID) but must not take the pages down; 设置 flags it.
 */
export async function marginGuardForReads(db: AdminDb): Promise<MarginGuard | null> {
  try {
    return await marginGuard(db);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'SETTING_INVALID') return null;
    throw err;
  }
}

const percent = (bp: number): string => `${(bp / 100).toFixed(2)}%`;
const yuan = (cent: Cent): string => (cent < 0 ? `-¥${formatCent(-cent)}` : `¥${formatCent(cent)}`);

/**
 * Whether a line earns less than the minimum at this cost; null when it does not. A sale the
 * margin cannot be worked out for (out of range) counts as below: nothing says it earns enough.
 */
export function marginShortfall(
  guard: MarginGuard,
  sale: { saleTwdCent: Cent; quantity: number },
  costCnyCent: Cent,
  /** what the cost is, for the message: 最高总价, 采集单价 × 数量 */
  costBasis: string,
): MarginShortfall | null {
  const money = lineMoney(sale, guard.rates, costCnyCent);
  if (money === null || money.marginCnyCent === null)
    return { figures: null, message: '订单行的售价超出正常范围，无法估算毛利，请核对顺运宝订单' };
  const figures: MarginFigures = {
    sale_cny_cent: money.saleCnyCent,
    fees_cny_cent: money.feesCnyCent,
    cost_cny_cent: costCnyCent,
    margin_cny_cent: money.marginCnyCent,
    margin_bp: money.marginBp,
    min_margin_bp: guard.minMarginBp,
  };
  // a sale of ¥0 has no rate of margin; whatever it costs, it earns nothing
  if (money.marginBp !== null && money.marginBp >= guard.minMarginBp) return null;
  const rate = money.marginBp === null ? '无法计算' : percent(money.marginBp);
  return {
    figures,
    message:
      `毛利率 ${rate} 低于最低毛利率 ${percent(guard.minMarginBp)}：按${costBasis} ${yuan(costCnyCent)} 估算，` +
      `售价 ${yuan(money.saleCnyCent)} − 费用 ${yuan(money.feesCnyCent)} − 成本 ${yuan(costCnyCent)}` +
      ` = 毛利 ${yuan(money.marginCnyCent)}`,
  };
}
