/**
 * What the money routes answer (docs/api.md §16), shared by the admin that builds them and
 * the UI that shows them. Money in integer CNY cents unless a name says TWD; null: not computed
 * (no rate set, nothing to compare with).
 */

/**
 * One 顺运宝 order line beside what it cost (`GET /api/money/lines`, the export). The line's task
 * is the one that holds it (a draft, a purchase, 待付款, 已完成), else its latest. Its cost is the
 * purchase's confirmed total once there is one, else the draft's cap as an estimate; its rates
 * are the ones frozen when it reached 待付款, else today's settings.
 */
export interface MoneyLine {
  syb_id: string;
  syb_order_no: string;
  title: string | null;
  product_spec: string | null;
  shopee_goods_id: string;
  shopee_sku_id: string | null;
  /** when the shipment was created, UTC; `shipped_on` is its Taipei day */
  shipped_at: string;
  shipped_on: string;
  sale_twd_cent: number | null;
  quantity: number;
  rate_ppm: number | null;
  fee_bp: number | null;
  sale_cny_cent: number | null;
  fees_cny_cent: number | null;
  cost_cny_cent: number | null;
  cost_source: 'purchase' | 'estimate' | null;
  margin_cny_cent: number | null;
  margin_bp: number | null;
  task_id: string | null;
  task_status: string | null;
  pdd_order_no: string | null;
  paid_at: string | null;
}

/** `GET /api/money/overview`: one entry per Taipei day of the range, quiet days as zeros. */
export interface OverviewDay {
  date: string;
  lines_in: number;
  live_purchases: number;
  waiting_payment_count: number;
  waiting_payment_cny_cent: number;
  paid_count: number;
  paid_cny_cent: number;
  dry_runs: number;
  stops: Record<string, number>;
  /** the summed margin of the purchases that reached 待付款 that day; null when none had a rate */
  margin_cny_cent: number | null;
}

/** A day on which nothing happened: what the overview shows for it. */
export const quietDay = (date: string): OverviewDay => ({
  date,
  lines_in: 0,
  live_purchases: 0,
  waiting_payment_count: 0,
  waiting_payment_cny_cent: 0,
  paid_count: 0,
  paid_cny_cent: 0,
  dry_runs: 0,
  stops: {},
  margin_cny_cent: null,
});

/** What waits to be paid on each phone now, and what it did within the range. */
export interface OverviewPhone {
  device_id: string;
  display_name: string;
  waiting_payment_count: number;
  waiting_payment_cny_cent: number;
  purchases: number;
  busy_seconds: number;
}

export interface Overview {
  days: OverviewDay[];
  phones: OverviewPhone[];
  rate_set: boolean;
}

/** `TaskView.money`: the task's order line beside this task's cost (admin/money/task-money.ts). */
export type TaskMoney = Pick<
  MoneyLine,
  | 'sale_twd_cent'
  | 'quantity'
  | 'rate_ppm'
  | 'sale_cny_cent'
  | 'fees_cny_cent'
  | 'cost_cny_cent'
  | 'cost_source'
  | 'margin_cny_cent'
  | 'margin_bp'
> & {
  /** the rates are the ones in force when the task reached 待付款, kept since */
  rates_frozen: boolean;
};
