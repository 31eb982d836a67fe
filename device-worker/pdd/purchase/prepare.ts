import type { FinalPanelReading, PurchaseTarget } from '../../../domain/contracts/device-activities';
import { gate1, gate2, gate3 } from '../../../domain/purchase/gates';
import { parsePddGoodsId } from '../../../domain/pdd-url';
import { DeviceError, isDeviceError } from '../../errors';
import type { PanelState } from '../panel-state';
import { readPanelPrice } from '../price';
import { readStepper, readSubmitControl } from './final-panel';
import type { PurchaseProfile } from './profile';
import type { PurchaseSession } from './purchase-session';

/** SAFETY_STOP: the phone's screen where a purchase stopped before the fence. */
export type EvidenceKind = 'SKU_PANEL_GATE_1' | 'SUBMIT_PANEL_GATE_3' | 'ORDER_RESULT' | 'ORDER_LIST' | 'SAFETY_STOP';

export interface PrepareHooks {
  /** a screenshot of what the phone shows now; failures are the hook's own business */
  evidence(kind: EvidenceKind): Promise<void>;
  /** a screenshot now, named by a later `evidence` once the next dump has shown the screen unchanged */
  preview?(): Promise<void>;
}

/**
 * Open, select, Gate 1, quantity, Gate 2, Gate 3 on one phone, stopping on the final panel with
 * nothing irreversible tapped. `reading` fills in as the flow goes, so a stop reports what was
 * read up to there. A page that is not what the task authorised and a phone that failed both
 * throw a DeviceError; its code (domain/purchase/failures.ts) says which it is.
 */
export async function prepareFinalPanel(
  session: PurchaseSession,
  pp: PurchaseProfile,
  target: PurchaseTarget,
  reading: Partial<FinalPanelReading>,
  hooks: PrepareHooks,
): Promise<FinalPanelReading> {
  try {
    return await prepareOnce(session, pp, target, reading, hooks);
  } catch (err) {
    // a network error page at any step before the fence: the goods link is opened again, by
    // intent, once — the whole way to the final panel is walked again from there
    if (!session.mayReopen(err)) throw err;
    session.steps.add('reopen_goods', { goods_id: target.goodsId, after: 'NETWORK_ERROR' });
    return prepareOnce(session, pp, target, reading, hooks);
  }
}

async function prepareOnce(
  session: PurchaseSession,
  pp: PurchaseProfile,
  target: PurchaseTarget,
  reading: Partial<FinalPanelReading>,
  hooks: PrepareHooks,
): Promise<FinalPanelReading> {
  const p = session.profile;
  // The page shows no goods id, so the id is bound by the URL we open: it must be the canonical
  // URL of exactly this id (and the task's URL must name the same id).
  const url = p.goodsUrl(target.goodsId);
  const fromUrl = parsePddGoodsId(url);
  const fromTask = parsePddGoodsId(target.goodsUrl);
  if (!fromUrl.ok || fromUrl.goodsId !== target.goodsId || !fromTask.ok || fromTask.goodsId !== target.goodsId) {
    throw new DeviceError('GOODS_MISMATCH', `goods url ${target.goodsUrl} does not name goods ${target.goodsId}`);
  }
  const goods = await asPurchaseFailure(() => session.openGoods(target.goodsId));
  reading.title = goods.title;
  reading.shopName = goods.shopName;

  const panel = await asPurchaseFailure(() => session.openSpecPanel(goods));
  const names = panel.names;
  const wanted = Object.keys(target.options);
  const unknown = wanted.filter((n) => !names.includes(n));
  if (unknown.length > 0)
    throw new DeviceError(
      'OPTION_NOT_FOUND',
      `the panel has no dimension ${unknown.join('/')} (it shows ${names.join('/')})`,
    );
  const unset = names.filter((n) => !(n in target.options));
  if (unset.length > 0) throw new DeviceError('OPTION_NOT_FOUND', `the task gives no option for ${unset.join('/')}`);
  const values = names.map((n) => target.options[n] as string);

  // Select per dimension by exact, unique equality; read each selection back.
  for (let d = 0; d < names.length; d++) {
    if (d === 1)
      await readBack(() => session.revealSizes(panel, values[0] as string), 'revealing the later dimensions');
    const section = panel.state.sections[d];
    if (!section) throw new DeviceError('OPTION_NOT_FOUND', `dimension ${names[d]} is not in view`);
    const value = values[d] as string;
    const matches = section.options.filter((o) => o.text === value);
    if (matches.length === 0)
      throw new DeviceError(
        'OPTION_NOT_FOUND',
        `${names[d]} has no option ${JSON.stringify(value)} (it shows ${section.options.map((o) => o.text).join(' / ')})`,
      );
    if (matches.length > 1)
      throw new DeviceError('OPTION_AMBIGUOUS', `${names[d]} shows ${JSON.stringify(value)} ${matches.length} times`);
    if (!matches[0]?.enabled)
      throw new DeviceError(
        'OPTION_UNAVAILABLE',
        `${names[d]} = ${JSON.stringify(value)} is sold out or not selectable`,
      );
    const expect = names.map((_, i) => (i <= d ? (values[i] as string) : null));
    await readBack(() => session.selectOption(panel, d, value, expect), `${names[d]} = ${value}`);
  }
  requireSelection(panel.state, names, values);
  reading.options = Object.fromEntries(names.map((n, i) => [n, values[i] as string]));

  // Gate 1: the unit price at count 1, read from the panel's top price only.
  const count1 = panel.state.view.count;
  if (count1 !== '1')
    throw new DeviceError(
      'QUANTITY_READBACK_MISMATCH',
      `the fresh panel's quantity reads ${JSON.stringify(count1)}, not 1`,
    );
  const unit = readPanelPrice(panel.state.view.priceText);
  reading.gate1RawPrice = panel.state.view.priceText;
  reading.gate1UnitPriceCent = unit.kind === 'single' ? unit.cent : null;
  const g1 = gate1({ unitPriceCent: reading.gate1UnitPriceCent, quantity: target.quantity, capCent: target.capCent });
  if (!g1.pass) throw new DeviceError(g1.reason, `Gate 1: ${g1.detail} (read ${JSON.stringify(unit.raw)})`);
  await hooks.evidence('SKU_PANEL_GATE_1');

  // Quantity with + and read back after every step.
  for (let n = 1; n < target.quantity; n++) {
    const st = await readBack(() => session.stepQuantity(panel, 'plus'), 'quantity +');
    if (st === 'missing') throw new DeviceError('PAGE_UNRECOGNIZED', 'the quantity row is not in view');
    if (st === 'disabled')
      throw new DeviceError('QUANTITY_OVER_STOCK', `"+" is disabled at ${n}; ${target.quantity} cannot be set`);
    if (st.view.count !== String(n + 1))
      throw new DeviceError(
        'QUANTITY_READBACK_MISMATCH',
        `after ${n} "+" the quantity reads ${JSON.stringify(st.view.count)}, not ${n + 1}`,
      );
  }
  // Gate 2 reads the panel as the last input left it: the last "+"'s read-back, or at quantity 1
  // the dump that proved the selection and Gate 1 — the same proof a re-read would give; the
  // fresh read is Gate 3's, below.
  requireSelection(panel.state, names, values);
  const qty = Number(panel.state.view.count);
  reading.quantityRead = Number.isSafeInteger(qty) ? qty : null;
  if (reading.quantityRead !== target.quantity)
    throw new DeviceError(
      'QUANTITY_READBACK_MISMATCH',
      `the quantity reads ${JSON.stringify(panel.state.view.count)}, wanted ${target.quantity}`,
    );

  // Gate 2: the panel total as READ at the target quantity (multi-piece prices are not linear).
  const total = readPanelPrice(panel.state.view.priceText);
  reading.gate2PanelTotalCent = total.kind === 'single' ? total.cent : null;
  if (
    target.quantity === 1 &&
    reading.gate2PanelTotalCent !== null &&
    reading.gate2PanelTotalCent !== reading.gate1UnitPriceCent
  ) {
    throw new DeviceError(
      'PRICE_CHANGED',
      `at quantity 1 the panel now reads ${total.raw}; Gate 1 read ${reading.gate1RawPrice}`,
    );
  }
  const g2 = gate2({ panelTotalCent: reading.gate2PanelTotalCent, capCent: target.capCent });
  if (!g2.pass) throw new DeviceError(g2.reason, `Gate 2: ${g2.detail} (read ${JSON.stringify(total.raw)})`);

  // Gate 3 on a fresh read of the same panel, before anything else happens on it. A picture
  // taken just before it costs no dump of its own: this read is its check (./evidence.ts).
  await hooks.preview?.();
  const fin = await readBack(() => session.rereadPanel(panel), 'the final panel');
  const g3 = readFinal(session, pp, fin, names, values, target, reading.gate2PanelTotalCent as number);
  reading.gate3SubmitAmountCent = g3;
  await hooks.evidence('SUBMIT_PANEL_GATE_3');
  return reading as FinalPanelReading;
}

/**
 * Gate 3 and the final re-check on one dump of the final panel:
 * options and quantity unchanged, top total still Gate 2, the unique enabled `提交订单 ¥X` with
 * X == Gate 2 ≤ cap. Used by prepare and, read-only, by submitOnce right before its tap.
 */
export function readFinal(
  session: PurchaseSession,
  pp: PurchaseProfile,
  st: PanelState,
  names: readonly string[],
  values: readonly string[],
  target: PurchaseTarget,
  gate2Cent: number,
): number {
  requireSelection(st, names, values);
  if (st.view.count !== String(target.quantity))
    throw new DeviceError(
      'QUANTITY_READBACK_MISMATCH',
      `the final panel's quantity reads ${JSON.stringify(st.view.count)}, wanted ${target.quantity}`,
    );
  const dump = session.lastDump();
  // the control first: a second 提交订单 is that stop, whatever else it covers
  const control = readSubmitControl(dump, session.profile, pp);
  if (readStepper(dump, session.profile, pp, 'plus') === null)
    throw new DeviceError('QUANTITY_READBACK_MISMATCH', 'the quantity row is not in view on the final panel');
  const top = readPanelPrice(st.view.priceText);
  if (top.kind !== 'single' || top.cent !== gate2Cent)
    throw new DeviceError(
      'PRICE_CHANGED',
      `the panel total now reads ${JSON.stringify(top.raw)}; Gate 2 read ${gate2Cent} cents`,
    );
  const g3 = gate3({ submitAmountCent: control.amountCent, gate2PanelTotalCent: gate2Cent, capCent: target.capCent });
  if (!g3.pass) throw new DeviceError(g3.reason, `Gate 3: ${g3.detail} (${control.raw})`);
  return control.amountCent;
}

function requireSelection(st: PanelState, names: readonly string[], values: readonly string[]): void {
  const ok = names.every((_, d) => st.selection[d] === values[d]);
  if (!ok)
    throw new DeviceError(
      'OPTION_READBACK_MISMATCH',
      `the panel reads ${JSON.stringify(st.selection)} (${st.view.summary}), wanted ${JSON.stringify(values)}`,
    );
}

/** A selection the panel does not prove is a read-back mismatch, not a phone fault. */
async function readBack<T>(fn: () => Promise<T>, what: string): Promise<T> {
  try {
    return await asPurchaseFailure(fn);
  } catch (err) {
    if (isDeviceError(err) && err.code === 'UNEXPECTED_SCREEN' && /^expected /.test(err.message))
      throw new DeviceError('OPTION_READBACK_MISMATCH', `${what}: ${err.message}`);
    throw err;
  }
}

/**
 * What the shared page reading reports as structure drift is, for a purchase, the more exact
 * OPTION_AMBIGUOUS when it was a duplicated option: still one DeviceError, with a sharper code.
 */
async function asPurchaseFailure<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isDeviceError(err) && err.code === 'PAGE_STRUCTURE_CHANGED' && err.details['ambiguous_option'] === true)
      throw new DeviceError('OPTION_AMBIGUOUS', err.message);
    throw err;
  }
}
