import { formatCent, parsePriceRange, parsePriceText, yuanToCent } from './money';

describe('money by string, never by float', () => {
  it.each([
    ['12.56', 1256],
    ['0.1', 10],
    ['19.9', 1990],
    ['12', 1200],
    ['0.29', 29], // 0.29 * 100 = 28.999999999999996 in floating point
    ['1.005', null],
    ['', null],
    ['-1', null],
    ['1e3', null],
  ])('yuanToCent(%j) = %j', (text, expected) => {
    expect(yuanToCent(text)).toBe(expected);
  });

  it('reads coupon and list prices, and refuses ranges and decorations', () => {
    expect(parsePriceText('¥12.56')).toEqual({ cent: 1256, coupon: false });
    expect(parsePriceText('券后¥12.56')).toEqual({ cent: 1256, coupon: true });
    expect(parsePriceText('￥0.29')).toEqual({ cent: 29, coupon: false });
    expect(parsePriceText('¥12.56-19.90')).toBeNull();
    expect(parsePriceText('¥12.56起')).toBeNull();
    expect(parsePriceText('')).toBeNull();
  });

  it('reads a range', () => {
    expect(parsePriceRange('¥12.56-19.90')).toEqual({ minCent: 1256, maxCent: 1990 });
    expect(parsePriceRange('¥12.56')).toBeNull();
  });

  it('formats cents without floats', () => {
    expect(formatCent(1256)).toBe('12.56');
    expect(formatCent(5)).toBe('0.05');
    expect(() => formatCent(1.5)).toThrow(RangeError);
  });
});
