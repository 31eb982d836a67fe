import type { SkusJson } from '../collect';
import type { Cent } from '../money';
import type { PendingOrder } from '../purchase/orders';
import type { StopFacts } from '../purchase/stop-facts';
import type { PurchaseWorkflowInput } from '../purchase/workflow-types';

/**
 * The contract between the workflows and the device activities, in one place: what a workflow
 * sends to a phone and what comes back. Types and names only — workflows, `activities/device` and
 * `device-worker/pdd` all import it, and none of them reaches into another for it. The workflow
 * never sees XML, screenshots or coordinates: only readings, verdicts and evidence ids.
 */

/** What `claimDevice` answers: the device and the queue every later activity must go to. */
export interface DeviceClaim {
  claim_id: string;
  device_id: string;
  task_queue: string;
  claimed_at: string;
}

/**
 * The query a phone host sends the workflow of its open claim, with the claim id: does the
 * workflow still hold it? Every workflow that claims a phone answers it (workflows/device-claim.ts,
 * defined in domain/contracts/purchase-messages.ts); the host frees the phone on a no
 * (device-worker/runtime/claim-checks.ts).
 */
export const HOLDS_CLAIM_QUERY = 'holdsClaim';

/** Every activity on `device/<id>` checks that the calling workflow owns this open claim. */
export interface DeviceActivityInput {
  claim: DeviceClaim;
}

/** What one activity cost on the phone (dumps dominate a real device's time, so they count apart). */
export interface DeviceCounters {
  adb_round_trips: number;
  dumps: number;
  taps: number;
  swipes: number;
  keyevents: number;
  wall_ms: number;
}

/**
 * Details of every device ApplicationFailure; its `type` is `code`, a `DeviceFailureCode`
 * (domain/purchase/failures.ts).
 */
export interface DeviceFailureDetails {
  code: string;
  message: string;
  artifact_path: string | null;
  counters: DeviceCounters;
  /** what a purchase had read on the panel up to the failure; null outside a purchase */
  reading?: Partial<FinalPanelReading> | null;
  /** what the stop was, as data for the operator's sentence; absent from older workers and from phone faults */
  facts?: StopFacts;
}

// ——— claim, health, collect ———

export interface ClaimDeviceActivities {
  claimDevice(): Promise<DeviceClaim>;
}

/**
 * Temporal payloads are camelCase (docs/api.md "Names"), this one too. `DeviceClaim`,
 * `DeviceCounters` and `DeviceFailureDetails` keep their snake_case wire names: recorded
 * histories carry them and workflows read them on replay (the claim's `task_queue`). The
 * workflow only passes this one on as its result.
 */
export interface DeviceHealth {
  deviceId: string;
  serial: string;
  model: string;
  appVersion: string | null;
  /** a page profile exists for this app version */
  appSupported: boolean;
  screen: { width: number; height: number } | null;
  counters: DeviceCounters;
}

export interface CollectSkusInput extends DeviceActivityInput {
  pddGoodsId: string;
}

/** The phone-side record of one collect (no purchase part). */
export interface PddData {
  schema_version: 1;
  goods: { goods_id: string; url: string; title: string };
  shop: { name: string | null };
  dimensions: { key: string; name: string; values: { text: string; available: boolean }[] }[];
  skus: SkusJson['skus'];
  purchase: null;
  captured_at: string;
  source: { device_id: string; device_address: string; pdd_package: string; app_version: string };
  artifacts: string[];
}

export interface CollectSkusResult {
  skus_json: SkusJson;
  pdd_data: PddData;
  counters: DeviceCounters;
}

export interface DeviceActivities {
  deviceHealth(input: DeviceActivityInput): Promise<DeviceHealth>;
  collectSkus(input: CollectSkusInput): Promise<CollectSkusResult>;
  releaseDevice(input: DeviceActivityInput): Promise<{ released: boolean }>;
}

// ——— purchase ———

/** The authorised purchase as the phone works on it: the workflow's input, less the expiry, plus the attempt. */
export type PurchaseTarget = Omit<PurchaseWorkflowInput, 'expiresAt'> & { attemptId: string };

/**
 * What the final panel showed before any tap. The fence re-checks exactly this, submitOnce
 * re-reads the panel against it, and the ledger keeps it with the submission.
 */
export interface FinalPanelReading {
  /** read back from the panel: dimension name → selected option text */
  options: Record<string, string>;
  quantityRead: number | null;
  gate1UnitPriceCent: Cent | null;
  gate1RawPrice: string | null;
  gate2PanelTotalCent: Cent | null;
  gate3SubmitAmountCent: Cent | null;
  title: string | null;
  shopName: string | null;
  appVersion: string;
}

/** `preparePurchase` reached the final panel; every stop on the way is a device failure instead. */
export interface PreparedPurchase {
  ok: true;
  reading: FinalPanelReading;
  evidenceIds: string[];
  counters: DeviceCounters;
  /** the interstitials closed on the way, in order, for the task's timeline (absent from older workers) */
  interstitialsClosed?: ClosedInterstitial[];
}

/** One interstitial the phone closed before the fence: its profile name and when. */
export interface ClosedInterstitial {
  name: string;
  at: string;
}

/** What the screen after the tap was; a `captcha` page is the stop reason CAPTCHA_REQUIRED (workflows/purchase/failures.ts). */
type ObservedOutcome = 'pending_payment' | 'payment_handoff' | 'captcha' | 'unknown';

export interface Observation {
  outcome: ObservedOutcome;
  /** the PDD order number; wire name kept: recorded workflow histories carry it (docs/api.md "Names") */
  orderNo: string | null;
  orderedAtRaw: string | null;
  /** the matched order's time in UTC; absent from workers older than this field */
  orderedAt?: string | null;
}

export interface DevicePurchaseActivities {
  /**
   * Open the goods, check goods_id and app version, open the spec panel through the profiled
   * entry, select every option exactly and read it back, Gate 1, set the quantity and read it
   * back, Gate 2, then read the final `提交订单 ¥X` control (Gate 3) — and stop there, on the
   * final panel, having tapped nothing irreversible. Evidence at Gate 1 and Gate 3. Safe to
   * retry from the start (it reopens the goods). A stop throws a device failure whose code
   * names the reason (domain/purchase/failures.ts) and whose details carry the readings so far.
   */
  preparePurchase(input: DeviceActivityInput & { target: PurchaseTarget }): Promise<PreparedPurchase>;

  /**
   * The one irreversible step. Refuses forever once the ledger holds a submission for this
   * authorization; re-reads the final panel (read-only) and refuses unless options, quantity and
   * the `提交订单 ¥X` amount still equal `expected`; writes `irreversible_action_at` durably;
   * then taps the unique enabled control exactly once. Run with `maximumAttempts: 1`.
   */
  submitOnce(
    input: DeviceActivityInput & { target: PurchaseTarget; submissionId: string; expected: FinalPanelReading },
  ): Promise<{ tappedAt: string; counters: DeviceCounters }>;

  /** Read-only: what the phone shows after the tap. No tap of any kind. */
  observeAfterSubmit(
    input: DeviceActivityInput & { target: PurchaseTarget; submissionId: string },
  ): Promise<Observation & { evidenceIds: string[]; counters: DeviceCounters }>;

  /**
   * Read-only: the PDD orders list, 待付款 tab, for reconciliation. Navigation by intent, no taps.
   * Also the ledger's `irreversible_action_at` for the authorization (null without a ledger row;
   * absent from phone hosts from before): the centre of the reconcile window when the tap time is unknown.
   */
  readPendingOrders(
    input: DeviceActivityInput & { target: PurchaseTarget },
  ): Promise<{ orders: PendingOrder[]; counters: DeviceCounters; irreversibleActionAt?: string | null }>;
}
