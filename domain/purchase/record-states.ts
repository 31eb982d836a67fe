/**
 * The states of the three records a purchase writes beside its task (docs/architecture.md §5.1),
 * one table each, in the shape of the task's own machine (./state-machine.ts): what a state
 * means, how the operator reads it where it is shown, and which states may follow it (none:
 * terminal). The admin code that writes these records takes its lists from here, and
 * test/architecture/state-check.test.ts compares each table with the DB's CHECK.
 */

interface RecordState<S extends string> {
  meaning: string;
  /** the operator's words, where a screen shows the state */
  zh: string | null;
  /** the states this one may move to; none means terminal */
  next: readonly S[];
}

/** Checks that every `next` names a row of the table itself. */
function table<const T extends { [K in keyof T]: RecordState<Extract<keyof T, string>> }>(rows: T): T {
  return rows;
}

/** One record's states and the questions asked of them. */
export interface RecordStates<S extends string> {
  readonly all: readonly S[];
  readonly terminal: readonly S[];
  has(status: string): status is S;
  isTerminal(status: S): boolean;
  canMove(from: S, to: S): boolean;
  zh(status: string): string | null;
}

function states<S extends string>(rows: Record<S, RecordState<S>>): RecordStates<S> {
  const all = Object.keys(rows) as S[];
  const has = (s: string): s is S => Object.prototype.hasOwnProperty.call(rows, s);
  return {
    all,
    terminal: all.filter((s) => rows[s].next.length === 0),
    has,
    isTerminal: (s) => rows[s].next.length === 0,
    canMove: (from, to) => rows[from].next.includes(to),
    zh: (s) => (has(s) ? rows[s].zh : null),
  };
}

/** `order_authorizations.status`: the operator's one-time permission to buy one task version. */
const AUTHORIZATION = table({
  ACTIVE: {
    meaning: 'the operator started the task; no phone has taken it yet',
    zh: '有效，待领取',
    next: ['CLAIMED', 'EXPIRED', 'ABANDONED'],
  },
  CLAIMED: {
    meaning: 'a phone took the task and works under it',
    zh: '手机已领取',
    next: ['FENCED', 'CONSUMED', 'EXPIRED', 'ABANDONED'],
  },
  FENCED: {
    meaning: 'the submission fence let the phone tap 提交订单 once',
    zh: '已获准提交一次',
    next: ['CONSUMED', 'ABANDONED'],
  },
  CONSUMED: {
    meaning: 'used: the task ended with it (bought, dry run passed, or failed after the fence)',
    zh: '已用掉',
    next: [],
  },
  EXPIRED: { meaning: 'no phone took it before it expired; the task went back to DRAFT', zh: '已过期', next: [] },
  ABANDONED: { meaning: 'given up without buying (stopped, cancelled, reset)', zh: '已作废', next: [] },
});
export type AuthorizationStatus = keyof typeof AUTHORIZATION;
export const AUTHORIZATION_STATES = states<AuthorizationStatus>(AUTHORIZATION);

/** `purchase_attempts.status`: one phone's work under one authorization. */
const ATTEMPT = table({
  RUNNING: {
    meaning: 'the phone is on its way to the final panel',
    zh: null,
    next: ['STOPPED', 'PASSED', 'FENCED', 'RESOLVED'],
  },
  STOPPED: { meaning: 'stopped before the tap (a gate, a popup, an operator)', zh: null, next: [] },
  PASSED: { meaning: 'a dry run reached the final panel and tapped nothing', zh: null, next: [] },
  FENCED: {
    meaning: 'the fence let it tap once; the outcome is not known yet',
    zh: null,
    next: ['SUBMITTED', 'RECONCILIATION_REQUIRED', 'RESOLVED', 'STOPPED'],
  },
  SUBMITTED: { meaning: 'the order it submitted was found', zh: null, next: ['RESOLVED'] },
  RECONCILIATION_REQUIRED: {
    meaning: 'whether its tap created an order is unknown: a person checks',
    zh: null,
    next: ['SUBMITTED', 'RESOLVED'],
  },
  RESOLVED: { meaning: 'settled by the operator', zh: null, next: [] },
});
export type AttemptStatus = keyof typeof ATTEMPT;
export const ATTEMPT_STATES = states<AttemptStatus>(ATTEMPT);

/** `order_submissions.status`: the one tap on 提交订单 an authorization may have. */
const SUBMISSION = table({
  FENCED: {
    meaning: 'the fence permitted the tap (it may not have happened: see abandoned_at)',
    zh: null,
    next: ['SUBMITTED', 'RECONCILIATION_REQUIRED', 'MANUAL_RESOLVED'],
  },
  SUBMITTED: { meaning: 'the order it created was found in PDD', zh: null, next: ['MANUAL_RESOLVED'] },
  RECONCILIATION_REQUIRED: {
    meaning: 'no matching order was found: a person checks PDD',
    zh: null,
    next: ['SUBMITTED', 'MANUAL_RESOLVED'],
  },
  MANUAL_RESOLVED: { meaning: "settled by the operator's reading of PDD", zh: null, next: [] },
});
export type SubmissionStatus = keyof typeof SUBMISSION;
export const SUBMISSION_STATES = states<SubmissionStatus>(SUBMISSION);

/** The attempt's state once its submission reaches one (both written in one transaction). */
export const ATTEMPT_FOR_SUBMISSION: Readonly<Record<Exclude<SubmissionStatus, 'FENCED'>, AttemptStatus>> = {
  SUBMITTED: 'SUBMITTED',
  RECONCILIATION_REQUIRED: 'RECONCILIATION_REQUIRED',
  MANUAL_RESOLVED: 'RESOLVED',
};
