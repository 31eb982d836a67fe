/** One row of the PDD orders list (待付款 tab) as the phone read it, for reconciliation. */
export interface PendingOrder {
  /** the PDD order number; wire name kept: recorded workflow histories carry it (docs/api.md "Names") */
  orderNo: string;
  goodsId: string | null;
  title: string | null;
  /** dimension name → option text when the list shows them; empty when it does not */
  options: Record<string, string>;
  optionsText: string | null;
  quantity: number | null;
  amountCent: number | null;
  placedAtRaw: string | null;
  /** UTC, or null when the raw text could not be read as a time */
  placedAt: string | null;
  status: string;
}
