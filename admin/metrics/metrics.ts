import { Counter, Gauge, Histogram } from 'prom-client';
import { isReasonCode, type ReasonCode } from '../../domain/purchase/reasons';
import { phaseOf, PURCHASE_STATUSES, type PurchaseStatus } from '../../domain/purchase/state-machine';
import { createMetricsRegistry, DURATION_BUCKETS_SECONDS, secondsBetween } from '../../platform/metrics';
import { listDevices, type DevicePresence } from '../auth/device-registry';
import type { AdminDb } from '../db/database';

/**
 * The admin's Prometheus metrics, served at `GET /metrics` (docs/operations.md "Metrics").
 * One registry per admin process: the purchase events reach it from the admin activities, which
 * run in this process. Every label value comes from a closed list (a state, a reason code, a
 * route pattern): never a task id, a device token, a title or anything about a recipient.
 */
export const adminMetricsRegistry = createMetricsRegistry();
const registers = [adminMetricsRegistry];

const purchasesStarted = new Counter({
  name: 'cmautobuy_purchases_started_total',
  help: 'Purchases started: one per one-time authorization created by 开始采购',
  registers,
});

const purchasesEnded = new Counter({
  name: 'cmautobuy_purchases_ended_total',
  help: 'Purchases whose automatic run ended (first state after PENDING/CLAIMED/ORDERING), by that state and its reason code',
  labelNames: ['status', 'reason'] as const,
  registers,
});

const gateStops = new Counter({
  name: 'cmautobuy_purchase_gate_stops_total',
  help: 'Purchases stopped in NEEDS_MANUAL by one of the three price gates',
  labelNames: ['gate'] as const,
  registers,
});

const claimWait = new Histogram({
  name: 'cmautobuy_purchase_claim_wait_seconds',
  help: 'Time from the start of a purchase (PENDING) until a phone claimed it (CLAIMED)',
  buckets: DURATION_BUCKETS_SECONDS,
  registers,
});

const startToWaitingPayment = new Histogram({
  name: 'cmautobuy_purchase_start_to_waiting_payment_seconds',
  help: 'Time from the start of a purchase until the system itself saw the unpaid order (WAITING_PAYMENT, 待付款)',
  buckets: DURATION_BUCKETS_SECONDS,
  registers,
});

const sybSyncLines = new Counter({
  name: 'cmautobuy_syb_sync_lines_total',
  help: 'Order lines read from SYB by successful syncs',
  registers,
});

const sybSyncRuns = new Counter({
  name: 'cmautobuy_syb_sync_runs_total',
  help: 'SYB syncs by outcome (ok | failed)',
  labelNames: ['outcome'] as const,
  registers,
});

const sybLastSuccess = new Gauge({
  name: 'cmautobuy_syb_sync_last_success_timestamp_seconds',
  help: 'Unix time of the last successful SYB sync (0 = none since the admin started)',
  registers,
});

const phones = new Gauge({
  name: 'cmautobuy_phones',
  help: 'Phones with an active device token, by state (online = seen by the admin within 10 minutes)',
  labelNames: ['state'] as const,
  registers,
});

const reconciliationCount = new Gauge({
  name: 'cmautobuy_purchases_awaiting_reconciliation',
  help: 'Purchase tasks in RECONCILIATION_REQUIRED (待核对) now',
  registers,
});

const reconciliationOldest = new Gauge({
  name: 'cmautobuy_reconciliation_oldest_age_seconds',
  help: 'Age of the oldest purchase task in RECONCILIATION_REQUIRED (待核对), from its last change; 0 when there is none',
  registers,
});

const dbUp = new Gauge({
  name: 'cmautobuy_admin_db_up',
  help: '1 when the gauges read from the admin DB at this scrape could be computed, else 0',
  registers,
});

/** The states a purchase's workflow moves through on its own; leaving them ends the automatic run. */
const RUNNING_STATES: ReadonlySet<PurchaseStatus> = new Set(PURCHASE_STATUSES.filter((s) => phaseOf(s) === 'running'));

/** Which price gate (domain/purchase/gates.ts) a stop's reason code names. */
const GATE_OF_REASON: Partial<Record<ReasonCode, string>> = {
  GATE1_OVER_CAP: '1',
  GATE2_OVER_CAP: '2',
  GATE3_MISMATCH: '3',
};

/** Started purchases, counted by `startPurchases` once their authorizations are committed. */
export function recordPurchasesStarted(count: number): void {
  if (count > 0) purchasesStarted.inc(count);
}

export interface PurchaseTransition {
  from: PurchaseStatus;
  to: PurchaseStatus;
  reasonCode: string | null | undefined;
  /** when the purchase was started (the task's `started_at`) */
  startedAt: string | null;
  /** the change was asked for by an operator (a person's pace is not the system's latency) */
  byOperator: boolean;
}

/**
 * Called by the one admin activity that records a purchase's state change, for a change that
 * is really made (not a replayed write), as its last step.
 */
export function recordPurchaseTransition(t: PurchaseTransition): void {
  const reason = t.reasonCode && isReasonCode(t.reasonCode) ? t.reasonCode : t.reasonCode ? 'OTHER' : 'NONE';
  if (RUNNING_STATES.has(t.from) && !RUNNING_STATES.has(t.to)) purchasesEnded.inc({ status: t.to, reason });
  if (t.from === 'PENDING' && t.to === 'CLAIMED' && t.startedAt) claimWait.observe(secondsBetween(t.startedAt));
  if (t.to === 'WAITING_PAYMENT' && !t.byOperator && t.startedAt)
    startToWaitingPayment.observe(secondsBetween(t.startedAt));
  const gate = t.to === 'NEEDS_MANUAL' && isReasonCode(reason) ? GATE_OF_REASON[reason] : undefined;
  if (gate) gateStops.inc({ gate });
}

/**
 * For the SYB sync: call once per sync run, with the number of order lines it read and whether
 * it succeeded. Failed runs count as failures whatever `lines` says.
 */
export function recordSybSync(run: { lines: number; ok: boolean }): void {
  sybSyncRuns.inc({ outcome: run.ok ? 'ok' : 'failed' });
  if (!run.ok) return;
  if (Number.isFinite(run.lines) && run.lines > 0) sybSyncLines.inc(Math.floor(run.lines));
  sybLastSuccess.set(Date.now() / 1000);
}

/**
 * The Prometheus text of the admin. Gauges that describe the present (phones online, tasks
 * waiting in 待核对) are read from the DB at scrape time, so a restarted admin reports them
 * right away; a DB that cannot answer leaves the counters readable and says so in
 * `cmautobuy_admin_db_up`.
 */
export async function renderAdminMetrics(
  db: AdminDb,
  presence: DevicePresence,
): Promise<{ contentType: string; text: string }> {
  try {
    const now = new Date();
    const devices = await listDevices(db, presence, now);
    const online = devices.filter((d) => d.online).length;
    phones.set({ state: 'online' }, online);
    phones.set({ state: 'offline' }, devices.length - online);
    // idx_tasks_type_status (task_type, status, updated_at) answers both from the index alone.
    const waiting = await db
      .selectFrom('tasks')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('updated_at').as('oldest')])
      .where('task_type', '=', 'purchase')
      .where('status', '=', 'RECONCILIATION_REQUIRED')
      .executeTakeFirst();
    reconciliationCount.set(Number(waiting?.n ?? 0));
    reconciliationOldest.set(waiting?.oldest ? secondsBetween(waiting.oldest, now) : 0);
    dbUp.set(1);
  } catch {
    dbUp.set(0);
  }
  return { contentType: adminMetricsRegistry.contentType, text: await adminMetricsRegistry.metrics() };
}
