import { allGates, gate1, gate2, gate3 } from './gates';

describe('price gates', () => {
  it('gate 1: unit × quantity against the cap; unreadable stops', () => {
    expect(gate1({ unitPriceCent: 1288, quantity: 2, capCent: 2576 })).toEqual({ pass: true });
    expect(gate1({ unitPriceCent: 1288, quantity: 2, capCent: 2575 })).toMatchObject({
      pass: false,
      reason: 'GATE1_OVER_CAP',
    });
    expect(gate1({ unitPriceCent: null, quantity: 1, capCent: 99999 })).toMatchObject({
      pass: false,
      reason: 'PRICE_UNREADABLE',
    });
  });

  it('gate 2: the read panel total, not unit × quantity (non-linear multi-piece prices)', () => {
    // 12.88 for one, 32.76 for two: gate 1 passes at a 30.00 cap, gate 2 must not.
    expect(gate1({ unitPriceCent: 1288, quantity: 2, capCent: 3000 }).pass).toBe(true);
    expect(gate2({ panelTotalCent: 3276, capCent: 3000 })).toMatchObject({ pass: false, reason: 'GATE2_OVER_CAP' });
    expect(gate2({ panelTotalCent: null, capCent: 3000 })).toMatchObject({ pass: false, reason: 'PRICE_UNREADABLE' });
  });

  it('gate 3: exactly the gate 2 total, and within the cap', () => {
    expect(gate3({ submitAmountCent: 3276, gate2PanelTotalCent: 3276, capCent: 4000 })).toEqual({ pass: true });
    expect(gate3({ submitAmountCent: 3275, gate2PanelTotalCent: 3276, capCent: 4000 })).toMatchObject({
      reason: 'GATE3_MISMATCH',
    });
    expect(gate3({ submitAmountCent: 3276, gate2PanelTotalCent: 3276, capCent: 3000 })).toMatchObject({
      reason: 'GATE3_MISMATCH',
    });
    expect(gate3({ submitAmountCent: null, gate2PanelTotalCent: 3276, capCent: 4000 })).toMatchObject({
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
