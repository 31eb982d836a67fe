import { lineMoney, MAX_SALE_TWD_CENT, roundHalfUp, saleCnyCent } from './margin';

describe('roundHalfUp: half away from zero, exact for any size', () => {
  it.each([
    [5n, 10n, 1n],
    [4n, 10n, 0n],
    [15n, 10n, 2n],
    [-5n, 10n, -1n],
    [-4n, 10n, 0n],
    [-15n, 10n, -2n],
    [0n, 7n, 0n],
    // past 2^53: a float would lose the last digit
    [9_007_199_254_740_993n * 2n + 1n, 2n, 9_007_199_254_740_994n],
  ])('%s / %s → %s', (n, d, want) => {
    expect(roundHalfUp(n, d)).toBe(want);
  });
  it('refuses a denominator that is not positive', () => {
    expect(() => roundHalfUp(1n, 0n)).toThrow(RangeError);
  });
});

describe('lineMoney: sale, fees, margin in integer cents', () => {
  const rates = { ratePpm: 225_000, feeBp: 250, lineFeeCnyCent: 300 };
  it('NT$1,000 × 2 at 0.225: ¥450.00, fees ¥11.25 + ¥3.00, margin against a ¥400 cost', () => {
    expect(saleCnyCent(100_000, 2, 225_000)).toBe(45_000);
    expect(lineMoney({ saleTwdCent: 100_000, quantity: 2 }, rates, 40_000)).toEqual({
      saleCnyCent: 45_000,
      feesCnyCent: 1_425,
      marginCnyCent: 3_575,
      marginBp: 794, // 3575 / 45000 = 7.9444…%
    });
  });
  it('a sale landing on half a cent rounds up; a loss keeps its sign and rounds away from zero', () => {
    // 1 × 0.5 = 0.5 → 1; no fee; cost 2: −1 of 1 → −10000 bp
    expect(lineMoney({ saleTwdCent: 1, quantity: 1 }, { ratePpm: 500_000, feeBp: 0, lineFeeCnyCent: 0 }, 2)).toEqual({
      saleCnyCent: 1,
      feesCnyCent: 0,
      marginCnyCent: -1,
      marginBp: -10_000,
    });
    // −1 of 8 = −1250 bp exactly; −1 of 16 = −625; −1 of 32 = −312.5 → −313
    const bp = (sale: number) =>
      lineMoney({ saleTwdCent: sale, quantity: 1 }, { ratePpm: 1_000_000, feeBp: 0, lineFeeCnyCent: 0 }, sale + 1)!
        .marginBp;
    expect([bp(8), bp(16), bp(32)]).toEqual([-1250, -625, -313]);
  });
  it('no cost: the sale and fees, no margin; nothing sold: no share of it', () => {
    expect(lineMoney({ saleTwdCent: 10_000, quantity: 1 }, rates, null)).toMatchObject({
      marginCnyCent: null,
      marginBp: null,
    });
    expect(lineMoney({ saleTwdCent: 0, quantity: 1 }, rates, 100)).toMatchObject({ saleCnyCent: 0, marginBp: null });
  });
  it('an absurd sale has no money at all rather than a figure nobody can check', () => {
    expect(lineMoney({ saleTwdCent: MAX_SALE_TWD_CENT, quantity: 2 }, rates, 1)).toBeNull();
    expect(lineMoney({ saleTwdCent: -1, quantity: 1 }, rates, 1)).toBeNull();
  });
});
