import { LIVE_LINE_TASK_STATES } from '../syb';
import { AUTHORIZATION_STATES } from './record-states';
import {
  allowedActions,
  allowsAction,
  canTransition,
  column,
  isPurchaseStatus,
  isTerminal,
  OPERATOR_ACTIONS,
  phaseOf,
  statesWhere,
  type OperatorAction,
} from './state-machine';
import { NEXT_STEP_ZH, PURCHASE_STATUSES, STATUS_ZH, type PurchaseStatus } from './status';

/** The whole table, written out once: a change to the machine must change this test too. */
const EXPECTED: Record<PurchaseStatus, { next: PurchaseStatus[]; actions: OperatorAction[] }> = {
  DRAFT: { next: ['PENDING', 'CANCELED'], actions: ['start', 'edit', 'cancel'] },
  PENDING: { next: ['CLAIMED', 'DRAFT', 'NEEDS_MANUAL', 'CANCELED'], actions: ['cancel'] },
  CLAIMED: { next: ['ORDERING', 'NEEDS_MANUAL', 'DRAFT', 'CANCELED'], actions: ['cancel'] },
  ORDERING: {
    next: ['NEEDS_MANUAL', 'DRY_RUN_PASSED', 'WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'CANCELED'],
    actions: ['cancel'],
  },
  NEEDS_MANUAL: { next: ['DRAFT', 'CANCELED'], actions: ['reset', 'cancel'] },
  WAITING_PAYMENT: { next: ['SUCCEEDED'], actions: ['mark-paid'] },
  RECONCILIATION_REQUIRED: { next: ['WAITING_PAYMENT', 'FAILED'], actions: ['resolve'] },
  DRY_RUN_PASSED: { next: [], actions: [] },
  SUCCEEDED: { next: [], actions: [] },
  FAILED: { next: [], actions: [] },
  CANCELED: { next: [], actions: [] },
};

describe('purchase state machine', () => {
  it.each(PURCHASE_STATUSES)('%s: exactly the listed transitions and actions', (from) => {
    const want = EXPECTED[from];
    expect(PURCHASE_STATUSES.filter((to) => canTransition(from, to)).sort()).toEqual([...want.next].sort());
    expect([...allowedActions(from)]).toEqual(want.actions);
    expect(OPERATOR_ACTIONS.filter((a) => allowsAction(from, a))).toEqual(
      OPERATOR_ACTIONS.filter((a) => want.actions.includes(a)),
    );
    expect(isTerminal(from)).toBe(want.next.length === 0);
  });

  it('terminal states are exactly the four endings, and none offers an action', () => {
    expect(PURCHASE_STATUSES.filter(isTerminal)).toEqual(['DRY_RUN_PASSED', 'SUCCEEDED', 'FAILED', 'CANCELED']);
    expect(PURCHASE_STATUSES.filter(isTerminal).flatMap((s) => allowedActions(s))).toEqual([]);
  });

  it('after the tap there is no way back: WAITING_PAYMENT and RECONCILIATION_REQUIRED never reach DRAFT, NEEDS_MANUAL or CANCELED', () => {
    for (const from of ['WAITING_PAYMENT', 'RECONCILIATION_REQUIRED'] as const) {
      for (const to of ['DRAFT', 'NEEDS_MANUAL', 'CANCELED', 'ORDERING'] as const)
        expect(canTransition(from, to)).toBe(false);
      expect(allowsAction(from, 'cancel')).toBe(false);
      expect(allowsAction(from, 'reset')).toBe(false);
    }
  });

  it('a status it does not know allows nothing (a stored string is not trusted)', () => {
    const stranger = 'collecting' as PurchaseStatus;
    expect(allowedActions(stranger)).toEqual([]);
    expect(canTransition(stranger, 'DRAFT')).toBe(false);
  });
});

describe('what the rest of the product reads from the table', () => {
  it('terminal exactly when the phase is ended; no waiting state without an operator action', () => {
    for (const s of PURCHASE_STATUSES) {
      expect([s, isTerminal(s)]).toEqual([s, phaseOf(s) === 'ended']);
      if (phaseOf(s) === 'person') expect([s, allowedActions(s).length > 0]).toEqual([s, true]);
    }
  });

  it('the words, tones and order lines every screen shows', () => {
    expect(STATUS_ZH.RECONCILIATION_REQUIRED).toBe('待核对');
    expect(NEXT_STEP_ZH.WAITING_PAYMENT).toContain('标记已付款');
    expect(column('tone')).toMatchObject({ PENDING: 'active', RECONCILIATION_REQUIRED: 'danger', CANCELED: 'done' });
    // a cancelled, failed or dry-run task frees its 顺运宝 line for a new draft; the others hold it
    expect(LIVE_LINE_TASK_STATES).toEqual(
      PURCHASE_STATUSES.filter((s) => !['DRY_RUN_PASSED', 'FAILED', 'CANCELED'].includes(s)),
    );
    expect(statesWhere('showsReason')).toEqual(['NEEDS_MANUAL', 'RECONCILIATION_REQUIRED', 'FAILED', 'CANCELED']);
    for (const s of PURCHASE_STATUSES) expect(STATUS_ZH[s]).toMatch(/^[^A-Za-z]+$/);
  });

  it('a stored string is a state only when the table has its row', () => {
    expect(isPurchaseStatus('DRAFT')).toBe(true);
    expect(isPurchaseStatus('collecting')).toBe(false);
    expect(isPurchaseStatus('hasOwnProperty')).toBe(false);
    expect(phaseOf('collecting')).toBe('ended');
  });
});

describe('the authorization moves with its task', () => {
  it('each state the workflow writes leaves the authorization in a state its own table allows', () => {
    const moves = column('authorizationBecomes');
    expect(moves).toMatchObject({
      CLAIMED: 'CLAIMED',
      DRAFT: 'EXPIRED',
      NEEDS_MANUAL: 'ABANDONED',
      CANCELED: 'ABANDONED',
      DRY_RUN_PASSED: 'CONSUMED',
      WAITING_PAYMENT: 'CONSUMED',
      RECONCILIATION_REQUIRED: 'CONSUMED',
    });
    for (const s of PURCHASE_STATUSES) {
      const to = moves[s];
      if (to === null) continue;
      // reachable from some open authorization state
      expect([s, AUTHORIZATION_STATES.all.some((from) => AUTHORIZATION_STATES.canMove(from, to))]).toEqual([s, true]);
    }
    // once the fence let the phone tap, going back to DRAFT (EXPIRED) is impossible
    expect(AUTHORIZATION_STATES.canMove('FENCED', moves.DRAFT!)).toBe(false);
  });
});
