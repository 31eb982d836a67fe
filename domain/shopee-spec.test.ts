import { parseShopeeSpec } from './shopee-spec';

describe('parseShopeeSpec (docs/architecture.md §5.2)', () => {
  it.each([
    ['黑色,M【建議40-50公斤】', '黑色', 'M', '40-50公斤'],
    ['卡其色拼黑色,L 建議50-57.5kg', '卡其色拼黑色', 'L', '50-57.5kg'],
    ['黑色,M', '黑色', 'M', null],
    [' 白色 , XL ', '白色', 'XL', null],
    ['白色,2XL【建議 70-80公斤 】', '白色', '2XL', '70-80公斤'],
    ['藍色,S建議40kg', '藍色', 'S', '40kg'],
    ['灰色,均碼【建议90-120斤】', '灰色', '均碼', '90-120斤'],
  ])('%s → %s / %s / %s', (raw, color, size, advice) => {
    expect(parseShopeeSpec(raw)).toEqual({ ok: true, color, size, advice });
  });

  it.each([
    ['', '规格为空'],
    ['黑色M', '没有逗号'],
    [',M', '颜色为空'],
    ['黑色,', '尺码为空'],
    ['黑色,【建議40-50公斤】', '尺码为空'],
    ['黑色, 建議40-50公斤', '尺码为空'],
    ['黑色,M,L', '多个逗号'],
    ['黑色,M【40-50公斤】', '【】'],
    ['黑色,M【建議40-50公斤】加大', '【】'],
    ['黑色,M【建議】', '建議后面没有内容'],
    ['黑色,M 建議', '建議后面没有内容'],
  ])('refuses to guess on %j', (raw, reason) => {
    const r = parseShopeeSpec(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain(reason);
  });
});
