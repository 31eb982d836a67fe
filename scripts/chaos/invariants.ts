/**
 * What must hold after every kill (docs/chaos.md), judged from the simulator's own records and
 * the admin's rows — never from what the system says about itself alone. Pure: the runner
 * gathers the facts, this says which promise broke.
 */
export interface PairFacts {
  /** the purchase's cap */
  maxTotalPriceCent: number;
  /** the orders the simulated PDD app holds, all phones, since the phones were reset */
  orders: { order_no: string; total_cent: number }[];
  submitTaps: number;
  paymentTaps: number;
  /** the task as the admin shows it once it rested, or as it was when the time ran out */
  task: { status: string; reason_code: string | null; pdd_order_no: string | null };
  /** it rested within the limit (5 minutes) */
  settledInTime: boolean;
  /** the admin's submissions (fences) of the authorization: their state, and whether one was given up untapped */
  fences: { status: string; abandoned: boolean }[];
  /** each phone afterwards: claiming again, or flagged with a reason */
  phones: { device_id: string; claiming: boolean; flagged: string | null }[];
}

export type Outcome = 'WAITING_PAYMENT' | 'STOPPED' | 'RECONCILIATION_REQUIRED' | 'DRY_RUN_PASSED' | 'NOT_SETTLED';

/** Where a purchase may rest with a defined next step; a stop carries its reason. */
const STOPS = ['NEEDS_MANUAL', 'FAILED', 'EXPIRED', 'CANCELED'];

export function judge(f: PairFacts): { outcome: Outcome; overCap: number; broken: string[] } {
  const broken: string[] = [];
  const overCap = f.orders.filter((o) => o.total_cent > f.maxTotalPriceCent).length;
  if (f.orders.length > 1) broken.push(`${f.orders.length} orders for one authorization`);
  if (f.submitTaps > 1) broken.push(`${f.submitTaps} taps on 提交订单`);
  if (f.paymentTaps > 0) broken.push(`${f.paymentTaps} payment taps`);
  if (overCap > 0) broken.push(`${overCap} orders over the cap`);
  if (f.fences.length > 1) broken.push(`${f.fences.length} fences for one authorization`);

  const { status, reason_code, pdd_order_no } = f.task;
  let outcome: Outcome = 'NOT_SETTLED';
  if (!f.settledInTime) broken.push(`no defined state within the limit (${status})`);
  else if (status === 'WAITING_PAYMENT') {
    outcome = 'WAITING_PAYMENT';
    if (f.orders.length !== 1 || pdd_order_no !== f.orders[0]?.order_no)
      broken.push(`待付款 with order ${pdd_order_no ?? 'none'} but the app holds ${f.orders.length} order(s)`);
  } else if (status === 'RECONCILIATION_REQUIRED') {
    outcome = 'RECONCILIATION_REQUIRED';
    if (!reason_code) broken.push('待核对 without a reason');
  } else if (status === 'DRY_RUN_PASSED') {
    outcome = 'DRY_RUN_PASSED';
    if (f.submitTaps > 0) broken.push('a dry run tapped 提交订单');
  } else if (STOPS.includes(status)) {
    outcome = 'STOPPED';
    if (!reason_code) broken.push(`${status} without a reason code`);
    // an order the task does not name is an order nobody pays or reconciles
    if (f.orders.length > 0) broken.push(`stopped (${reason_code ?? 'no reason'}) while the app holds an order`);
  } else broken.push(`rested in ${status}, not a defined state`);

  // a fence ends with its order found, in 待核对, resolved by a person, or given up untapped — never
  // left permitting a tap (FENCED) once the purchase rests
  if (f.fences.some((x) => x.status === 'FENCED' && !x.abandoned)) broken.push('a fence left open');
  for (const p of f.phones)
    if (!p.claiming && !p.flagged) broken.push(`phone ${p.device_id} neither claiming nor flagged`);
  return { outcome, overCap, broken };
}
