import type { PendingOrder } from '../../domain/purchase/orders';
import type { ReasonCode } from '../../domain/purchase/reasons';
import type { DeviceActivityInput } from './types';

export type { PendingOrder };

/**
 * The phone side of a purchase (ARCHITECTURE §4.2 steps 3–10), as the purchase workflow calls it
 * on the claimed device's queue. The device worker implements it; the workflow never sees XML,
 * screenshots or coordinates — only readings, verdicts and evidence ids.
 *
 * Every activity here checks that the calling workflow owns the device's open claim.
 */
export interface PurchaseTarget {
  taskId: string;
  attemptId: string;
  authorizationId: string;
  goodsId: string;
  goodsUrl: string;
  /** dimension name as the panel shows it → exact option text */
  options: Record<string, string>;
  quantity: number;
  capCent: number;
  mode: 'dry_run' | 'live';
}

/** What the final panel showed before any tap; the fence re-checks exactly this. */
export interface FinalPanelReading {
  /** read back from the panel: dimension name → selected option text */
  options: Record<string, string>;
  quantityRead: number | null;
  gate1UnitPriceCent: number | null;
  gate1RawPrice: string | null;
  gate2PanelTotalCent: number | null;
  gate3SubmitAmountCent: number | null;
  title: string | null;
  shopName: string | null;
  appVersion: string;
}

export interface ActivityCounters {
  adbRoundTrips: number;
  dumps: number;
  taps: number;
  wallMs: number;
}

export type PrepareOutcome =
  | { ok: true; reading: FinalPanelReading; evidenceIds: string[]; counters: ActivityCounters }
  | {
      ok: false;
      reason: ReasonCode;
      detail: string;
      reading: Partial<FinalPanelReading>;
      evidenceIds: string[];
      artifactPath: string | null;
      counters: ActivityCounters;
    };

export type ObservedOutcome = 'pending_payment' | 'payment_handoff' | 'captcha' | 'unknown';


export interface DevicePurchaseActivities {
  /**
   * Open the goods, check goods_id and app version, open the spec panel through the profiled
   * entry, select every option exactly and read it back, Gate 1, set the quantity and read it
   * back, Gate 2, then read the final `提交订单 ¥X` control (Gate 3) — and stop there, on the
   * final panel, having tapped nothing irreversible. Evidence at Gate 1 and Gate 3. Safe to
   * retry from the start (it reopens the goods). A stop before the fence is `ok: false` with a
   * reason code, never an exception (exceptions mean the phone itself failed).
   */
  preparePurchase(input: DeviceActivityInput & { target: PurchaseTarget }): Promise<PrepareOutcome>;

  /**
   * The one irreversible step. Refuses forever once the ledger holds a submission for this
   * authorization; re-reads the final panel (read-only) and refuses unless options, quantity and
   * the `提交订单 ¥X` amount still equal `expected`; writes `irreversible_action_at` durably;
   * then taps the unique enabled control exactly once. Run with `maximumAttempts: 1`.
   */
  submitOnce(input: DeviceActivityInput & { target: PurchaseTarget; submissionId: string; expected: FinalPanelReading }): Promise<{ tappedAt: string; counters: ActivityCounters }>;

  /** Read-only: what the phone shows after the tap. No tap of any kind. */
  observeAfterSubmit(input: DeviceActivityInput & { target: PurchaseTarget; submissionId: string }): Promise<{
    outcome: ObservedOutcome;
    orderNo: string | null;
    orderedAtRaw: string | null;
    evidenceIds: string[];
    counters: ActivityCounters;
  }>;

  /** Read-only: the PDD orders list, 待付款 tab, for reconciliation. Navigation by intent, no taps. */
  readPendingOrders(input: DeviceActivityInput & { target: PurchaseTarget }): Promise<{ orders: PendingOrder[]; counters: ActivityCounters }>;
}
