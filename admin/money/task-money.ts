import { lineMoney } from '../../domain/margin';
import type { TaskMoney } from '../../domain/money-views';
import type { AdminDb } from '../db/database';
import { currentRates } from './lines';

interface TaskMoneyFields {
  status: string;
  max_total_price_cent: number | null;
  confirmed_total_cent: number | null;
  waiting_payment_at: string | null;
  money_rate_ppm: number | null;
  money_fee_bp: number | null;
  money_line_fee_cny_cent: number | null;
}

/** The 顺运宝 line a task was drafted from, as the task page reads it: its 规格 and its sale. */
export interface TaskOrderLine {
  product_spec: string | null;
  price_twd_cent: number | null;
  quantity: number;
}

/** The task's order line, read once for both its 规格 and its money; null for a manual task. */
export async function taskOrderLine(db: AdminDb, sybId: string | null): Promise<TaskOrderLine | null> {
  if (sybId === null) return null;
  const line = await db
    .selectFrom('syb_orders')
    .select(['product_spec', 'price_twd_cent', 'quantity'])
    .where('syb_id', '=', sybId)
    .executeTakeFirst();
  return line ?? null;
}

/**
 * The task page's 金额: its order line's sale beside this task's cost — the confirmed total once
 * it reached 待付款 (at the rates frozen then), else its cap as an estimate at today's rates. Null
 * for a task not made from an order line: there is no sale to compare with.
 */
export async function taskMoney(
  db: AdminDb,
  task: TaskMoneyFields,
  line: TaskOrderLine | null,
): Promise<TaskMoney | null> {
  if (!line) return null;
  const frozen = task.waiting_payment_at !== null;
  const today = frozen ? null : await currentRates(db);
  const rates = {
    ratePpm: frozen ? task.money_rate_ppm : today!.ratePpm,
    feeBp: frozen ? (task.money_fee_bp ?? 0) : today!.feeBp,
    lineFeeCnyCent: frozen ? (task.money_line_fee_cny_cent ?? 0) : today!.lineFeeCnyCent,
  };
  const ended = task.status === 'FAILED' || task.status === 'CANCELED';
  const cost = task.confirmed_total_cent ?? (ended ? null : task.max_total_price_cent);
  const money =
    rates.ratePpm === null || line.price_twd_cent === null
      ? null
      : lineMoney(
          { saleTwdCent: line.price_twd_cent, quantity: line.quantity },
          { ...rates, ratePpm: rates.ratePpm },
          cost,
        );
  return {
    sale_twd_cent: line.price_twd_cent,
    quantity: line.quantity,
    rate_ppm: rates.ratePpm,
    rates_frozen: frozen,
    sale_cny_cent: money?.saleCnyCent ?? null,
    fees_cny_cent: money?.feesCnyCent ?? null,
    cost_cny_cent: cost,
    cost_source: task.confirmed_total_cent !== null ? 'purchase' : cost !== null ? 'estimate' : null,
    margin_cny_cent: money?.marginCnyCent ?? null,
    margin_bp: money?.marginBp ?? null,
  };
}
