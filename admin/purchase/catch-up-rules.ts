import type { FinalPanelReading } from '../../domain/contracts/device-activities';
import type { GateReadings } from '../../domain/purchase/gates';
import {
  ATTEMPT_FOR_SUBMISSION,
  AUTHORIZATION_STATES,
  SUBMISSION_STATES,
  type AttemptStatus,
  type AuthorizationStatus,
  type SubmissionStatus,
} from '../../domain/purchase/record-states';
import { column, isPurchaseStatus, isTerminal, type PurchaseStatus } from '../../domain/purchase/state-machine';

/**
 * What a purchase's Temporal history says its admin writes were, folded into the rows they left
 * (./catch-up.ts brings a restored admin database back in line with it). Pure: the history is
 * read and decoded elsewhere, so every rule here is tested without Temporal.
 */

/** One admin activity that completed, as its history records it: name, input (none for a local one), result, when. */
export interface AdminWrite {
  name: string;
  input: unknown;
  result: unknown;
  /** UTC, the completion event's time */
  at: string;
}

/** One status the workflow wrote (recordPurchaseStatus, or the CLAIMED and ORDERING of beginOrdering). */
export interface StatusMove {
  to: PurchaseStatus;
  at: string;
  reasonCode?: string | null;
  detail?: string;
  actor?: string;
  requestId?: string;
  orderNo?: string;
  deviceId?: string;
}

interface CaughtAttempt {
  id: string;
  startedAt: string;
  status: AttemptStatus;
  step: string;
  readings: Partial<GateReadings>;
  confirmedOptions: Record<string, string> | null;
  failure: { code: string; detail: string; artifactRef?: string | null } | null;
  purchaseJson: string | null;
  finishedAt: string | null;
}

interface CaughtSubmission {
  id: string;
  attemptId: string;
  createdAt: string;
  confirmation: FinalPanelReading;
  status: SubmissionStatus;
  tappedAt: string | null;
  pddOrderNo: string | null;
  orderedAt: string | null;
  resolvedAt: string | null;
  abandonedAt: string | null;
}

/** Everything one purchase's admin writes left in the admin DB, as far as its history tells. */
export interface CaughtPurchase {
  moves: StatusMove[];
  /** the last status written; PENDING when the workflow has written none yet */
  status: PurchaseStatus;
  reasonCode: string | null;
  deviceId: string | null;
  pddOrderNo: string | null;
  authorization: AuthorizationStatus;
  authorizationClosedAt: string | null;
  attempt: CaughtAttempt | null;
  submission: CaughtSubmission | null;
  /** the task's `result_data` (savePurchaseResult), JSON */
  resultData: string | null;
  goods: { title: string | null; shopName: string | null };
}

const AUTHORIZATION_FOR = column('authorizationBecomes');

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (v !== null && typeof v === 'object' ? (v as Rec) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Folds the completed admin writes, in history order, into the rows they wrote. */
export function foldAdminWrites(writes: readonly AdminWrite[]): CaughtPurchase {
  const c: CaughtPurchase = {
    moves: [],
    status: 'PENDING',
    reasonCode: null,
    deviceId: null,
    pddOrderNo: null,
    authorization: 'ACTIVE',
    authorizationClosedAt: null,
    attempt: null,
    submission: null,
    resultData: null,
    goods: { title: null, shopName: null },
  };
  for (const w of writes) foldOne(c, w);
  return c;
}

function foldOne(c: CaughtPurchase, w: AdminWrite): void {
  const input = rec(w.input);
  const result = rec(w.result);
  switch (w.name) {
    case 'claimDevice':
      c.deviceId = str(result.device_id) ?? c.deviceId;
      return;
    case 'beginOrdering':
    case 'beginPurchaseAttempt': {
      const attemptId = str(result.attemptId);
      if (attemptId && !c.attempt) c.attempt = newAttempt(attemptId, w.at);
      const deviceId = str(input.deviceId);
      if (deviceId) c.deviceId = deviceId;
      if (w.name === 'beginOrdering') {
        if (c.status === 'PENDING') move(c, { to: 'CLAIMED', at: w.at });
        move(c, { to: 'ORDERING', at: w.at });
      }
      return;
    }
    case 'recordPurchaseStatus':
      move(c, { ...(input as unknown as StatusMove), at: w.at });
      return;
    case 'recordAttemptProgress':
      return progress(c, input, w.at);
    case 'createSubmissionFence':
      return fenced(c, input, result, w.at);
    case 'abandonUntappedFence':
      if (c.submission && c.submission.status === 'FENCED' && !c.submission.tappedAt) c.submission.abandonedAt ??= w.at;
      return;
    case 'recordSubmissionTapped':
      if (c.submission) c.submission.tappedAt ??= str(input.tappedAt) ?? null;
      return;
    case 'recordSubmissionOutcome':
      return outcome(c, input, w.at);
    case 'savePurchaseResult':
      c.resultData = JSON.stringify({ schema_version: 1, purchase: input.purchase });
      if (c.attempt) c.attempt.purchaseJson = JSON.stringify(input.purchase);
      return;
  }
}

function newAttempt(id: string, at: string): CaughtAttempt {
  return {
    id,
    startedAt: at,
    status: 'RUNNING',
    step: 'claimed',
    readings: {},
    confirmedOptions: null,
    failure: null,
    purchaseJson: null,
    finishedAt: null,
  };
}

/** The status write as activities/admin/purchase/status.ts makes it: the task, then its authorization. */
function move(c: CaughtPurchase, m: StatusMove): void {
  if (c.moves.at(-1)?.to === m.to && c.status === m.to) return; // a replayed write
  c.moves.push(m);
  c.status = m.to;
  if (m.reasonCode !== undefined) c.reasonCode = m.reasonCode;
  if (m.deviceId !== undefined) c.deviceId = m.deviceId;
  if (m.orderNo !== undefined) c.pddOrderNo = m.orderNo;
  const auth = AUTHORIZATION_FOR[m.to];
  if (auth && !AUTHORIZATION_STATES.isTerminal(c.authorization)) {
    c.authorization = auth;
    if (auth !== 'CLAIMED') c.authorizationClosedAt = m.at;
  }
}

function progress(c: CaughtPurchase, input: Rec, at: string): void {
  const a = c.attempt;
  if (!a) return;
  a.step = str(input.step) ?? a.step;
  a.readings = { ...a.readings, ...rec(input.readings) };
  if (input.confirmedOptions) a.confirmedOptions = input.confirmedOptions as Record<string, string>;
  if (input.failure) a.failure = input.failure as CaughtAttempt['failure'];
  const status = str(input.status) as AttemptStatus | undefined;
  if (status && ['RUNNING', 'PASSED', 'STOPPED'].includes(a.status)) {
    a.status = status;
    if (status === 'STOPPED' || status === 'PASSED') a.finishedAt = at;
  }
  const goods = rec(input.goods);
  c.goods.title ??= str(goods.title) ?? null;
  c.goods.shopName ??= str(goods.shopName) ?? null;
}

function fenced(c: CaughtPurchase, input: Rec, result: Rec, at: string): void {
  const id = str(result.submissionId);
  if (result.clickPermitted !== true || !id || c.submission) return;
  c.submission = {
    id,
    attemptId: str(input.attemptId) ?? c.attempt?.id ?? '',
    createdAt: at,
    confirmation: input.confirmation as FinalPanelReading,
    status: 'FENCED',
    tappedAt: null,
    pddOrderNo: null,
    orderedAt: null,
    resolvedAt: null,
    abandonedAt: null,
  };
  c.authorization = 'FENCED';
  if (c.attempt) {
    c.attempt.status = 'FENCED';
    c.attempt.step = 'fenced';
  }
}

function outcome(c: CaughtPurchase, input: Rec, at: string): void {
  const s = c.submission;
  if (!s || SUBMISSION_STATES.isTerminal(s.status)) return;
  const status = input.status as Exclude<SubmissionStatus, 'FENCED'>;
  s.status = status;
  s.pddOrderNo = str(input.orderNo) ?? s.pddOrderNo;
  s.orderedAt = str(input.orderedAt) ?? s.orderedAt;
  if (status === 'MANUAL_RESOLVED') s.resolvedAt = at;
  if (c.attempt) {
    c.attempt.status = ATTEMPT_FOR_SUBMISSION[status];
    c.attempt.finishedAt = at;
  }
}

/** What the restored admin DB holds of one purchase's task and authorization. */
export interface TaskInDb {
  status: string;
  authorizationId: string | null;
}

/**
 * How the admin DB stands against one purchase workflow (`authorizationId`):
 * - `in-line`: nothing to do — the task shows the status the workflow last wrote, or the task
 *   has moved on to another authorization this database knows;
 * - `behind`: the workflow wrote more than the database holds — a draft in the backup that ran
 *   since, or a status the workflow has moved past;
 * - `missing`: the task is not in the database (created and started after the backup);
 * - `ahead`: the task holds this authorization in a status the workflow never wrote (an
 *   operator's repair of a closed workflow): it is never rewritten.
 */
export type CatchUpVerdict = 'in-line' | 'behind' | 'missing' | 'ahead';

export function catchUpVerdict(
  task: TaskInDb | null,
  authorizationKnown: boolean,
  authorizationId: string,
  written: { status: PurchaseStatus; moves: readonly Pick<StatusMove, 'to'>[] },
): CatchUpVerdict {
  if (!task) return 'missing';
  if (task.authorizationId !== authorizationId) return authorizationKnown ? 'in-line' : 'behind';
  if (task.status === written.status) return 'in-line';
  if (task.status === 'PENDING') return 'behind';
  const at = written.moves.map((m) => m.to as string).lastIndexOf(task.status);
  return at >= 0 && isPurchaseStatus(task.status) && !isTerminal(task.status) ? 'behind' : 'ahead';
}

/**
 * The cheap look, from the visibility list alone (the status the workflow last wrote is its
 * `TaskStatus` search attribute): true when nothing needs the history read.
 */
export function looksInLine(
  task: TaskInDb | null,
  authorizationKnown: boolean,
  authorizationId: string,
  searchStatus: string | null,
): boolean {
  if (!task || !authorizationKnown) return false;
  if (task.authorizationId !== authorizationId) return true;
  return searchStatus !== null && task.status === searchStatus;
}

/** The status moves the database does not hold yet: those after the one it shows (all of them when it holds none). */
export function movesAfter(moves: readonly StatusMove[], dbStatus: string | null): StatusMove[] {
  if (dbStatus === null) return [...moves];
  const at = moves.map((m) => m.to as string).lastIndexOf(dbStatus);
  return moves.slice(at + 1);
}
