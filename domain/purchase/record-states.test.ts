import { ATTEMPT_FOR_SUBMISSION, ATTEMPT_STATES, AUTHORIZATION_STATES, SUBMISSION_STATES } from './record-states';

describe('the states of the purchase records', () => {
  it('an authorization is spent once: CONSUMED, EXPIRED and ABANDONED are terminal, and nothing goes back to ACTIVE', () => {
    expect(AUTHORIZATION_STATES.terminal).toEqual(['CONSUMED', 'EXPIRED', 'ABANDONED']);
    for (const s of AUTHORIZATION_STATES.all) expect(AUTHORIZATION_STATES.canMove(s, 'ACTIVE')).toBe(false);
    expect(AUTHORIZATION_STATES.canMove('FENCED', 'EXPIRED')).toBe(false);
    for (const s of AUTHORIZATION_STATES.all) expect(AUTHORIZATION_STATES.zh(s)).toMatch(/^[^A-Za-z]+$/);
  });

  it('a submission never goes back to FENCED; MANUAL_RESOLVED is the end', () => {
    expect(SUBMISSION_STATES.terminal).toEqual(['MANUAL_RESOLVED']);
    for (const s of SUBMISSION_STATES.all) expect(SUBMISSION_STATES.canMove(s, 'FENCED')).toBe(false);
  });

  it('an attempt past its fence never runs again; each submission outcome has its attempt state', () => {
    for (const s of ['FENCED', 'SUBMITTED', 'RECONCILIATION_REQUIRED', 'RESOLVED'] as const)
      expect(ATTEMPT_STATES.canMove(s, 'RUNNING')).toBe(false);
    for (const [sub, attempt] of Object.entries(ATTEMPT_FOR_SUBMISSION)) {
      expect(SUBMISSION_STATES.has(sub)).toBe(true);
      expect(ATTEMPT_STATES.canMove('FENCED', attempt)).toBe(true);
    }
    expect(ATTEMPT_STATES.has('toString')).toBe(false);
  });
});
