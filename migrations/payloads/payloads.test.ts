import { upgradePurchaseInput, type RecordedBeforeCapName } from './purchase-input';
import { upgradePurchaseResult } from './purchase-result';

/** The payload migrations: what a workflow or activity recorded before a rename reads as today. */
describe('payload migrations', () => {
  type Input = { taskId: string; quantity: number; maxTotalPriceCent: number };
  const current: Input = { taskId: 't', quantity: 2, maxTotalPriceCent: 4000 };

  it('an input recorded with capCent takes the same cap as maxTotalPriceCent, and no capCent', () => {
    const recorded: RecordedBeforeCapName<Input> = { taskId: 't', quantity: 2, capCent: 4000 };
    const upgraded = upgradePurchaseInput<Input>(recorded);
    expect(upgraded).toEqual(current);
    expect(upgraded).not.toHaveProperty('capCent');
  });

  it('an input under the current name comes back as it is', () => {
    expect(upgradePurchaseInput(current)).toBe(current);
  });

  it('a target (the input and more) keeps every other field', () => {
    const target = { taskId: 't', quantity: 1, capCent: 2000, attemptId: 'a', options: { 尺码: 'M' } };
    expect(upgradePurchaseInput<Input & { attemptId: string; options: Record<string, string> }>(target)).toEqual({
      taskId: 't',
      quantity: 1,
      maxTotalPriceCent: 2000,
      attemptId: 'a',
      options: { 尺码: 'M' },
    });
  });

  it('a purchase result recorded with order_no carries the PDD number as pdd_order_no', () => {
    const recorded = { mode: 'live', order_no: '260807-1', match_status: 'matched' };
    expect(upgradePurchaseResult(recorded)).toEqual({
      mode: 'live',
      pdd_order_no: '260807-1',
      match_status: 'matched',
    });
    expect(upgradePurchaseResult({ mode: 'dry_run', order_no: null })).toEqual({ mode: 'dry_run', pdd_order_no: null });
  });

  it('a result under the current name, or no object at all, comes back as it is', () => {
    const current = { mode: 'live', pdd_order_no: '260807-1' };
    expect(upgradePurchaseResult(current)).toBe(current);
    expect(upgradePurchaseResult(null)).toBeNull();
  });
});
