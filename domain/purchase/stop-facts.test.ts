import { allGates, gate1, gate2, gate3 } from './gates';
import { parseStopFacts, stopFactsSchema, type StopFacts, type StopFactsKind } from './stop-facts';
import { stopFactsZh } from './stop-facts-zh';

/** One example of every kind and its sentence: a kind added without one does not compile. */
const EVERY_KIND: { [K in StopFactsKind]: [Extract<StopFacts, { kind: K }>, string] } = {
  gate1_over_cap: [
    { kind: 'gate1_over_cap', unit_price_cent: 1288, quantity: 2, total_cent: 2576, max_total_price_cent: 2500 },
    '单价 ¥12.88 × 2 = ¥25.76，超过最高总价 ¥25.00',
  ],
  panel_total_over_cap: [
    { kind: 'panel_total_over_cap', panel_total_cent: 3276, max_total_price_cent: 3000 },
    '面板总额 ¥32.76，超过最高总价 ¥30.00',
  ],
  submit_amount_differs: [
    { kind: 'submit_amount_differs', submit_amount_cent: 3300, panel_total_cent: 3276 },
    '提交金额 ¥33.00 与面板总额 ¥32.76 不一致',
  ],
  submit_amount_over_cap: [
    { kind: 'submit_amount_over_cap', submit_amount_cent: 3276, max_total_price_cent: 3000 },
    '提交金额 ¥32.76，超过最高总价 ¥30.00',
  ],
  unreadable: [{ kind: 'unreadable', reading: 'unit_price' }, '单价无法读取'],
  quantity_read_back: [{ kind: 'quantity_read_back', read: 1, wanted: 2 }, '数量读回 1，应为 2'],
  dimension_missing: [
    { kind: 'dimension_missing', dimensions: ['尺寸'], shown: ['颜色分类', '尺码'] },
    '规格面板没有「尺寸」这一项（页面上有：颜色分类 / 尺码）',
  ],
  option_not_given: [{ kind: 'option_not_given', dimensions: ['尺码'] }, '任务没有给出「尺码」的选项'],
  dimension_not_in_view: [{ kind: 'dimension_not_in_view', dimension: '尺码' }, '规格「尺码」不在可见区域'],
  option_missing: [
    { kind: 'option_missing', dimension: '颜色', option: '红红', shown: ['红', '粉红', '红色系'] },
    '「颜色」没有选项「红红」（页面上有：红 / 粉红 / 红色系）',
  ],
  option_ambiguous: [
    { kind: 'option_ambiguous', dimension: '颜色', option: '红', count: 2 },
    '「颜色」里「红」出现了 2 次，无法确定点哪一个',
  ],
  option_sold_out: [
    { kind: 'option_sold_out', dimension: '颜色分类', option: '白色' },
    '「颜色分类」的「白色」已售罄或不可选',
  ],
  selection_differs: [
    { kind: 'selection_differs', selection: ['黑色', null], summary: '请选择 尺码', wanted: ['黑色', 'M'] },
    '面板上选中的是「请选择 尺码」，与任务要求的规格不一致',
  ],
  fresh_quantity_not_one: [{ kind: 'fresh_quantity_not_one', shown: '2' }, '刚打开的规格面板数量显示 2，不是 1'],
  quantity_after_plus: [
    { kind: 'quantity_after_plus', plus_taps: 1, shown: '1', wanted: 2 },
    '点了 1 次「+」后数量显示 1，应为 2',
  ],
  quantity_shown: [{ kind: 'quantity_shown', shown: '3', wanted: 2 }, '数量显示 3，应为 2'],
  quantity_row_missing: [{ kind: 'quantity_row_missing' }, '数量一栏不在可见区域'],
  plus_disabled: [{ kind: 'plus_disabled', at: 2, wanted: 3 }, '数量加到 2 时「+」已不可点，无法设为 3（库存不足）'],
  price_moved_at_one: [
    { kind: 'price_moved_at_one', now: '¥15', gate1_read: '¥12.88' },
    '价格已变化：数量为 1 时面板现在显示 ¥15，闸门一读到的是 ¥12.88',
  ],
  panel_total_moved: [
    { kind: 'panel_total_moved', now: '¥39', gate2_panel_total_cent: 2576 },
    '价格已变化：面板总额现在显示 ¥39，闸门二读到的是 ¥25.76',
  ],
  submit_control_count: [
    { kind: 'submit_control_count', label: '提交订单', count: 2 },
    '最终面板上有 2 个「提交订单」按钮，应当只有一个',
  ],
  submit_control_shape: [
    { kind: 'submit_control_shape', label: '提交订单', shown: '提交订单' },
    '提交按钮显示 提交订单，不是「提交订单 ¥金额」的样子',
  ],
  submit_control_disabled: [{ kind: 'submit_control_disabled' }, '提交按钮不可点'],
  interstitial_closed: [{ kind: 'interstitial_closed', interstitial: 'red_packet' }, '现金红包弹窗'],
};

describe('stop facts → the operator’s sentence', () => {
  it.each(Object.entries(EVERY_KIND))('%s', (_kind, [facts, zh]) => {
    expect(stopFactsZh(facts)).toBe(zh);
    // what one process wrote, another reads back unchanged
    expect(parseStopFacts(JSON.parse(JSON.stringify(facts)))).toEqual(facts);
  });

  it('tells each unreadable reading apart, with the text the phone saw when there was one', () => {
    expect(stopFactsZh({ kind: 'unreadable', reading: 'panel_total' })).toBe('面板总额无法读取');
    expect(stopFactsZh({ kind: 'unreadable', reading: 'submit_amount' })).toBe('提交金额无法读取');
    expect(stopFactsZh({ kind: 'unreadable', reading: 'submit_amount', shown: '0.00' })).toBe('提交金额 0.00 无法读取');
  });

  it('says 无法读取 for what the phone could not read, never "null"', () => {
    expect(stopFactsZh({ kind: 'quantity_read_back', read: null, wanted: 2 })).toBe('数量读回 无法读取，应为 2');
    expect(stopFactsZh({ kind: 'quantity_shown', shown: null, wanted: 2 })).toBe('数量显示 无法读取，应为 2');
    expect(stopFactsZh({ kind: 'price_moved_at_one', now: '¥15', gate1_read: null })).toContain(
      '闸门一读到的是 无法读取',
    );
  });

  it('names an unknown popup 弹窗', () => {
    expect(stopFactsZh({ kind: 'interstitial_closed', interstitial: 'something_new' })).toBe('弹窗');
  });

  it('reads nothing it does not know: an unknown kind, a missing number, money that is not cents', () => {
    expect(parseStopFacts(undefined)).toBeNull();
    expect(parseStopFacts(null)).toBeNull();
    expect(parseStopFacts('GATE1_OVER_CAP')).toBeNull();
    expect(parseStopFacts({ kind: 'a_kind_from_a_later_version' })).toBeNull();
    expect(parseStopFacts({ kind: 'panel_total_over_cap', panel_total_cent: 3276 })).toBeNull();
    expect(
      parseStopFacts({ kind: 'panel_total_over_cap', panel_total_cent: 32.76, max_total_price_cent: 3000 }),
    ).toBeNull();
    expect(
      stopFactsSchema.safeParse({ kind: 'option_ambiguous', dimension: '颜色', option: '红', count: -1 }).success,
    ).toBe(false);
  });
});

describe('the gates state their facts beside the English', () => {
  const verdictZh = (v: ReturnType<typeof allGates>): string | null => (v.pass ? null : stopFactsZh(v.facts));

  it('Gate 1, Gate 2 and Gate 3, each failure', () => {
    expect(verdictZh(gate1({ unitPriceCent: 1288, quantity: 2, maxTotalPriceCent: 2500 }))).toBe(
      '单价 ¥12.88 × 2 = ¥25.76，超过最高总价 ¥25.00',
    );
    expect(verdictZh(gate1({ unitPriceCent: null, quantity: 2, maxTotalPriceCent: 2500 }))).toBe('单价无法读取');
    expect(verdictZh(gate2({ panelTotalCent: 3276, maxTotalPriceCent: 3000 }))).toBe(
      '面板总额 ¥32.76，超过最高总价 ¥30.00',
    );
    expect(verdictZh(gate2({ panelTotalCent: null, maxTotalPriceCent: 3000 }))).toBe('面板总额无法读取');
    expect(verdictZh(gate3({ submitAmountCent: 3300, gate2PanelTotalCent: 3276, maxTotalPriceCent: 4000 }))).toBe(
      '提交金额 ¥33.00 与面板总额 ¥32.76 不一致',
    );
    expect(verdictZh(gate3({ submitAmountCent: 3276, gate2PanelTotalCent: 3276, maxTotalPriceCent: 3000 }))).toBe(
      '提交金额 ¥32.76，超过最高总价 ¥30.00',
    );
    expect(verdictZh(gate3({ submitAmountCent: null, gate2PanelTotalCent: 3276, maxTotalPriceCent: 3000 }))).toBe(
      '提交金额无法读取',
    );
  });

  it('the quantity read back', () => {
    const readings = {
      gate1UnitPriceCent: 1288,
      gate2PanelTotalCent: 2576,
      gate3SubmitAmountCent: 2576,
      quantityRead: 3,
    };
    const v = allGates(readings, 2, 4000);
    expect(v).toMatchObject({ pass: false, reason: 'QUANTITY_READBACK_MISMATCH', detail: 'read 3, wanted 2' });
    expect(verdictZh(v)).toBe('数量读回 3，应为 2');
  });
});
