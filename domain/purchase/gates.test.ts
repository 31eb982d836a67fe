import { allGates, gate1, gate2, gate3, gateStandings } from './gates';

describe('price gates', () => {
  it('gate 1: unit × quantity against the cap; unreadable stops', () => {
    expect(gate1({ unitPriceCent: 1288, quantity: 2, maxTotalPriceCent: 2576 })).toEqual({ pass: true });
    expect(gate1({ unitPriceCent: 1288, quantity: 2, maxTotalPriceCent: 2575 })).toMatchObject({
      pass: false,
      reason: 'GATE1_OVER_CAP',
    });
    expect(gate1({ unitPriceCent: null, quantity: 1, maxTotalPriceCent: 99999 })).toMatchObject({
      pass: false,
      reason: 'PRICE_UNREADABLE',
    });
  });

  it('gate 2: the read panel total, not unit × quantity (non-linear multi-piece prices)', () => {
    // 12.88 for one, 32.76 for two: gate 1 passes at a 30.00 cap, gate 2 must not.
    expect(gate1({ unitPriceCent: 1288, quantity: 2, maxTotalPriceCent: 3000 }).pass).toBe(true);
    expect(gate2({ panelTotalCent: 3276, maxTotalPriceCent: 3000 })).toMatchObject({
      pass: false,
      reason: 'GATE2_OVER_CAP',
    });
    expect(gate2({ panelTotalCent: null, maxTotalPriceCent: 3000 })).toMatchObject({
      pass: false,
      reason: 'PRICE_UNREADABLE',
    });
  });

  it('gate 3: exactly the gate 2 total, and within the cap', () => {
    expect(gate3({ submitAmountCent: 3276, gate2PanelTotalCent: 3276, maxTotalPriceCent: 4000 })).toEqual({
      pass: true,
    });
    expect(gate3({ submitAmountCent: 3275, gate2PanelTotalCent: 3276, maxTotalPriceCent: 4000 })).toMatchObject({
      reason: 'GATE3_MISMATCH',
    });
    expect(gate3({ submitAmountCent: 3276, gate2PanelTotalCent: 3276, maxTotalPriceCent: 3000 })).toMatchObject({
      reason: 'GATE3_MISMATCH',
    });
    expect(gate3({ submitAmountCent: null, gate2PanelTotalCent: 3276, maxTotalPriceCent: 4000 })).toMatchObject({
      reason: 'GATE3_MISMATCH',
    });
  });

  it('allGates also insists on the quantity read back', () => {
    const ok = { gate1UnitPriceCent: 1288, gate2PanelTotalCent: 3276, gate3SubmitAmountCent: 3276, quantityRead: 2 };
    expect(allGates(ok, 2, 4000)).toEqual({ pass: true });
    expect(allGates({ ...ok, quantityRead: 1 }, 2, 4000)).toMatchObject({ reason: 'QUANTITY_READBACK_MISMATCH' });
    expect(allGates({ ...ok, gate3SubmitAmountCent: 3277 }, 2, 4000)).toMatchObject({ reason: 'GATE3_MISMATCH' });
  });
});

describe('gate standings (the 价格闸门 panel)', () => {
  const none = { gate1UnitPriceCent: null, gate2PanelTotalCent: null, gate3SubmitAmountCent: null, quantityRead: null };

  it('a reading not taken is pending, never a pass', () => {
    expect(gateStandings(none, 2, 10_000)).toEqual({
      gate1: 'pending',
      gate2: 'pending',
      gate3: 'pending',
      quantity: 'pending',
    });
  });

  it('passes at the cap and fails one cent over it, gate by gate, as the gates themselves judge', () => {
    const at = {
      gate1UnitPriceCent: 5_000,
      gate2PanelTotalCent: 10_000,
      gate3SubmitAmountCent: 10_000,
      quantityRead: 2,
    };
    expect(gateStandings(at, 2, 10_000)).toEqual({ gate1: 'pass', gate2: 'pass', gate3: 'pass', quantity: 'pass' });
    const over = {
      gate1UnitPriceCent: 5_001,
      gate2PanelTotalCent: 10_001,
      gate3SubmitAmountCent: 10_001,
      quantityRead: 3,
    };
    expect(gateStandings(over, 2, 10_000)).toEqual({ gate1: 'fail', gate2: 'fail', gate3: 'fail', quantity: 'fail' });
  });

  it('a submit amount that differs from the panel total, or has none to equal, fails', () => {
    expect(gateStandings({ ...none, gate2PanelTotalCent: 9_000, gate3SubmitAmountCent: 8_000 }, 1, 10_000).gate3).toBe(
      'fail',
    );
    expect(gateStandings({ ...none, gate3SubmitAmountCent: 8_000 }, 1, 10_000).gate3).toBe('fail');
  });
});
