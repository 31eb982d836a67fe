import { repairActions, repairedStatus, type RepairAction } from './repair-rules';
import { PURCHASE_STATUSES, type PurchaseStatus } from './state-machine';

/**
 * Where the operator's answer takes a task whose workflow is closed, written out for every state
 * and both sides of the fence: [state, answer, before the fence, after the fence].
 */
const EXPECTED: Array<[PurchaseStatus, RepairAction, PurchaseStatus | null, PurchaseStatus | null]> = [
  ['PENDING', 'cancel', 'CANCELED', null],
  ['CLAIMED', 'cancel', 'CANCELED', null],
  ['ORDERING', 'cancel', 'CANCELED', null],
  // stopped before the tap: nothing was submitted, so cancel stays safe after a fence
  ['NEEDS_MANUAL', 'cancel', 'CANCELED', 'CANCELED'],
  ['NEEDS_MANUAL', 'reset', 'DRAFT', 'DRAFT'],
  ['WAITING_PAYMENT', 'mark-paid', 'SUCCEEDED', 'SUCCEEDED'],
  ['PENDING', 'resolve-not-created', 'DRAFT', 'FAILED'],
  ['ORDERING', 'resolve-created', null, 'WAITING_PAYMENT'],
  ['RECONCILIATION_REQUIRED', 'resolve-created', null, 'WAITING_PAYMENT'],
  ['RECONCILIATION_REQUIRED', 'resolve-not-created', 'DRAFT', 'FAILED'],
];

describe('repair of a task whose workflow is closed', () => {
  it.each(EXPECTED)('%s + %s → %s before the fence, %s after', (from, action, before, after) => {
    expect(repairedStatus(from, action, false)).toBe(before);
    expect(repairedStatus(from, action, true)).toBe(after);
  });

  it('nothing repairs a draft or an ended task; an answer the state does not offer is refused', () => {
    for (const from of ['DRAFT', 'SUCCEEDED', 'FAILED', 'CANCELED', 'DRY_RUN_PASSED'] as const)
      for (const action of ['mark-paid', 'reset', 'cancel', 'resolve-created', 'resolve-not-created'] as const)
        expect(repairedStatus(from, action, true)).toBeNull();
    expect(repairedStatus('WAITING_PAYMENT', 'cancel', false)).toBeNull();
    expect(repairedStatus('RECONCILIATION_REQUIRED', 'cancel', false)).toBeNull();
    expect(repairedStatus('PENDING', 'mark-paid', true)).toBeNull();
    expect(repairedStatus('ORDERING', 'reset', false)).toBeNull();
  });

  it('the task page offers, for a closed workflow, answers the admin accepts', () => {
    expect(Object.fromEntries(PURCHASE_STATUSES.map((s) => [s, repairActions(s)]))).toEqual({
      DRAFT: [],
      PENDING: ['resolve-created', 'resolve-not-created'],
      CLAIMED: ['resolve-created', 'resolve-not-created'],
      ORDERING: ['resolve-created', 'resolve-not-created'],
      NEEDS_MANUAL: ['resolve-created', 'resolve-not-created'],
      WAITING_PAYMENT: ['mark-paid'],
      RECONCILIATION_REQUIRED: ['resolve-created', 'resolve-not-created'],
      DRY_RUN_PASSED: [],
      SUCCEEDED: [],
      FAILED: [],
      CANCELED: [],
    });
    for (const s of PURCHASE_STATUSES)
      for (const a of repairActions(s))
        expect([s, a, repairedStatus(s, a, true) ?? repairedStatus(s, a, false)]).not.toContainEqual(null);
  });
});
