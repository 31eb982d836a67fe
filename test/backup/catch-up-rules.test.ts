import {
  catchUpVerdict,
  foldAdminWrites,
  looksInLine,
  movesAfter,
  type AdminWrite,
} from '../../admin/purchase/catch-up-rules';

const AUTH = 'auth-1';
const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}Z`;
const reading = {
  options: { 颜色分类: '黑色' },
  quantityRead: 1,
  gate1UnitPriceCent: 1500,
  gate1RawPrice: '¥15',
  gate2PanelTotalCent: 1500,
  gate3SubmitAmountCent: 1500,
  title: 't',
  shopName: 's',
  appVersion: '8.17.0',
};

/** A live purchase to 待付款, as its history records the admin writes. */
const toWaitingPayment: AdminWrite[] = [
  { name: 'claimDevice', input: {}, result: { device_id: 'phone-1' }, at: at(1) },
  { name: 'beginOrdering', input: null, result: { attemptId: 'att-1' }, at: at(2) },
  {
    name: 'recordAttemptProgress',
    input: { attemptId: 'att-1', step: 'final_panel', readings: reading },
    result: null,
    at: at(3),
  },
  {
    name: 'createSubmissionFence',
    input: { attemptId: 'att-1', confirmation: reading },
    result: { clickPermitted: true, submissionId: 'sub-1' },
    at: at(4),
  },
  { name: 'recordSubmissionTapped', input: { submissionId: 'sub-1', tappedAt: at(5) }, result: null, at: at(5) },
  {
    name: 'recordSubmissionOutcome',
    input: { submissionId: 'sub-1', status: 'SUBMITTED', orderNo: 'PDD-9' },
    result: null,
    at: at(6),
  },
  {
    name: 'recordPurchaseStatus',
    input: { to: 'WAITING_PAYMENT', orderNo: 'PDD-9', deviceId: 'phone-1' },
    result: null,
    at: at(7),
  },
];

describe('the catch-up rules (admin/purchase/catch-up-rules.ts)', () => {
  it('folds the writes of a purchase into the rows they left', () => {
    const c = foldAdminWrites(toWaitingPayment);
    expect(c.moves.map((m) => m.to)).toEqual(['CLAIMED', 'ORDERING', 'WAITING_PAYMENT']);
    expect(c).toMatchObject({
      status: 'WAITING_PAYMENT',
      pddOrderNo: 'PDD-9',
      deviceId: 'phone-1',
      authorization: 'CONSUMED',
    });
    expect(c.attempt).toMatchObject({ id: 'att-1', status: 'SUBMITTED' });
    expect(c.submission).toMatchObject({ id: 'sub-1', status: 'SUBMITTED', tappedAt: at(5), pddOrderNo: 'PDD-9' });
  });

  it('a refused fence leaves no submission; the stop closes the authorization', () => {
    const c = foldAdminWrites([
      ...toWaitingPayment.slice(0, 3),
      {
        name: 'createSubmissionFence',
        input: {},
        result: { clickPermitted: false, reason: 'FENCE_REFUSED' },
        at: at(4),
      },
      {
        name: 'recordPurchaseStatus',
        input: { to: 'NEEDS_MANUAL', reasonCode: 'FENCE_REFUSED' },
        result: null,
        at: at(5),
      },
    ]);
    expect(c).toMatchObject({
      status: 'NEEDS_MANUAL',
      reasonCode: 'FENCE_REFUSED',
      submission: null,
      authorization: 'ABANDONED',
    });
  });

  it('judges the database against the workflow: behind, in line, missing, or ahead (never rewritten)', () => {
    const written = foldAdminWrites(toWaitingPayment);
    expect(catchUpVerdict(null, false, AUTH, written)).toBe('missing');
    expect(catchUpVerdict({ status: 'DRAFT', authorizationId: null }, false, AUTH, written)).toBe('behind');
    expect(catchUpVerdict({ status: 'PENDING', authorizationId: AUTH }, true, AUTH, written)).toBe('behind');
    expect(catchUpVerdict({ status: 'ORDERING', authorizationId: AUTH }, true, AUTH, written)).toBe('behind');
    expect(catchUpVerdict({ status: 'WAITING_PAYMENT', authorizationId: AUTH }, true, AUTH, written)).toBe('in-line');
    // repaired by the operator after the workflow closed: the task is ahead
    expect(catchUpVerdict({ status: 'SUCCEEDED', authorizationId: AUTH }, true, AUTH, written)).toBe('ahead');
    // started again under a newer authorization the database knows
    expect(catchUpVerdict({ status: 'PENDING', authorizationId: 'auth-2' }, true, AUTH, written)).toBe('in-line');
  });

  it('the cheap look reads no history when the task shows the status the workflow last wrote', () => {
    const task = { status: 'WAITING_PAYMENT', authorizationId: AUTH };
    expect(looksInLine(task, true, AUTH, 'WAITING_PAYMENT')).toBe(true);
    expect(looksInLine(task, true, AUTH, 'SUCCEEDED')).toBe(false);
    expect(looksInLine(task, false, AUTH, 'WAITING_PAYMENT')).toBe(false);
    expect(looksInLine(null, false, AUTH, 'WAITING_PAYMENT')).toBe(false);
    expect(looksInLine({ status: 'DRAFT', authorizationId: null }, true, AUTH, 'DRAFT')).toBe(true);
  });

  it('the timeline takes only the moves after the one the database shows', () => {
    const { moves } = foldAdminWrites(toWaitingPayment);
    expect(movesAfter(moves, 'CLAIMED').map((m) => m.to)).toEqual(['ORDERING', 'WAITING_PAYMENT']);
    expect(movesAfter(moves, null)).toHaveLength(3);
    expect(movesAfter(moves, 'PENDING')).toHaveLength(3);
  });
});
