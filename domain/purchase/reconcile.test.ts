import type { PendingOrder } from './orders';
import { matchPendingOrder } from './reconcile';

const order = (over: Partial<PendingOrder> = {}): PendingOrder => ({
  orderNo: '240601-1',
  goodsId: '937122477375',
  title: 't',
  options: { 颜色分类: '黑色', 尺码: 'M' },
  optionsText: '黑色 M',
  quantity: 2,
  amountCent: 3276,
  placedAtRaw: '2026-11-30 10:00:30',
  placedAt: '2026-11-30T10:00:30Z',
  status: '待付款',
  ...over,
});
const facts = {
  goodsId: '937122477375',
  options: { 尺码: 'M', 颜色分类: '黑色' },
  quantity: 2,
  amountCent: 3276,
  submittedAt: '2026-11-30T10:00:00Z',
};

describe('reconciliation matching', () => {
  it('matches exactly one order on goods, options, quantity, amount and time', () => {
    expect(matchPendingOrder([order()], facts)).toMatchObject({ matched: true, order: { orderNo: '240601-1' } });
  });
  it('refuses when nothing matches or several do', () => {
    expect(matchPendingOrder([order({ amountCent: 3275 })], facts)).toMatchObject({ matched: false, candidates: 0 });
    expect(matchPendingOrder([order({ options: { 颜色分类: '粉黑色', 尺码: 'M' } })], facts).matched).toBe(false);
    expect(matchPendingOrder([order({ placedAt: '2026-11-30T10:05:01Z' })], facts).matched).toBe(false);
    expect(matchPendingOrder([order({ placedAt: null })], facts).matched).toBe(false);
    expect(matchPendingOrder([order(), order({ orderNo: '240601-2' })], facts)).toMatchObject({
      matched: false,
      candidates: 2,
    });
  });
});
