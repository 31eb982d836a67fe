import { specsAgree } from './spec-agreement';
import { isCalendarDay, specMatchKey, taipeiDay, taipeiDayStartUtc, taipeiLocalToUtc, twdYuanToCent } from './syb';

describe('SYB prices: TWD 元 string → cents, half-up, never through a float', () => {
  it.each([
    ['1.005', 101], // 1.005 * 100 = 100.49999999999999
    ['2.675', 268], // 2.675 * 100 = 267.49999999999997
    ['0.295', 30],
    ['1234.565', 123457],
    ['100', 10000],
    ['1005.50', 100550],
    ['0.004', 0],
    ['0.005', 1],
    ['9.995', 1000],
    ['0', 0],
    [' 12.3 ', 1230],
  ])('twdYuanToCent(%j) = %j', (text, expected) => {
    expect(twdYuanToCent(text)).toBe(expected);
  });

  it.each(['', '-1', '1.0005', '1e3', '1,000', 'NT$100', '.5', '1.'])(
    '%j is not a price → null (unknown, never 0)',
    (text) => {
      expect(twdYuanToCent(text)).toBeNull();
    },
  );
});

describe('Taipei days', () => {
  it('an instant after 16:00 UTC is already the next day in Taipei', () => {
    expect(taipeiDay(new Date('2026-11-30T15:59:59Z'))).toBe('2026-11-30');
    expect(taipeiDay(new Date('2026-11-30T16:00:00Z'))).toBe('2026-12-01');
  });
  it('local shipment time → UTC', () => {
    expect(taipeiLocalToUtc('2026-12-01 00:05:00')).toBe('2026-11-30T16:05:00Z');
    expect(taipeiLocalToUtc('2026-12-01T00:05:00')).toBeNull();
  });
  it('a Taipei day starts at 16:00 UTC the day before; the day after a month’s end is the next month’s first', () => {
    expect(taipeiDayStartUtc('2026-12-01')).toBe('2026-11-30T16:00:00Z');
    expect(taipeiDayStartUtc('2026-02-28', 1)).toBe('2026-02-28T16:00:00Z');
    // the day the start lands on and the day it starts agree: taipeiDay is its inverse
    expect(taipeiDay(new Date(taipeiDayStartUtc('2026-03-01')))).toBe('2026-03-01');
  });
  it('only a day on the calendar is a day', () => {
    expect(['2026-02-28', '2024-02-29', '2026-12-31'].map(isCalendarDay)).toEqual([true, true, true]);
    expect(
      ['2026-02-29', '2026-02-30', '2026-13-01', '2026-1-01', '2026-01-01T00:00:00Z', ''].map(isCalendarDay),
    ).toEqual([false, false, false, false, false, false]);
  });
});

describe('spec keys for auto-matching', () => {
  it('the same colour/size/advice match however the advice is written; anything else does not', () => {
    expect(specMatchKey('黑色,M【建議40-50公斤】')).toBe(specMatchKey(' 黑色, M 建議40-50公斤'));
    expect(specMatchKey('黑色,M')).not.toBe(specMatchKey('黑色,L'));
    expect(specMatchKey('黑色,M')).not.toBe(specMatchKey('黑色,M【建議40-50公斤】'));
    expect(specMatchKey('2m')).toBe(specMatchKey(' 2m '));
    expect(specMatchKey(null)).toBeNull();
    expect(specMatchKey('  ')).toBeNull();
  });
});

describe('SYB times that do not exist', () => {
  it.each(['2026-12-01 00:60:00', '2026-02-30 10:00:00', '2026-12-01 24:00:00', '2026-13-01 10:00:00'])(
    '%j → null (the line is stored as 数据异常, never rolled over to another time)',
    (local) => {
      expect(taipeiLocalToUtc(local)).toBeNull();
    },
  );
});

describe('specsAgree: 规格 read the same after 繁简, width and spacing', () => {
  it.each([
    ['黑色,M', '黑色,M'],
    ['黑色, M', '黑色,M'],
    ['黑色，M', '黑色,M'],
    ['綠色,M', '绿色,M'],
    ['ＸＬ', 'XL'],
    // a separator or a space only: one spec written two ways
    ['粉紅 S', '粉紅,S'],
    ['粉紅 S', '粉红,S'],
    ['粉红/S', '粉红S'],
  ])('%j agrees with %j', (a, b) => {
    expect(specsAgree(a, b)).toBe(true);
  });
  it.each([
    ['綠色,M', '白色,L'],
    ['黑色,M【建議40-50公斤】', '黑色,M'],
    ['粉紅 S', '粉紅,M'],
    [null, '黑色,M'],
  ])('%j differs from %j', (a, b) => {
    expect(specsAgree(a, b)).toBe(false);
  });
});
