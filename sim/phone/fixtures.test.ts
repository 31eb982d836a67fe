import { PNG } from 'pngjs';
import { defaultCatalog } from './catalog/default-catalog';
import { renderFixtures } from './fixtures';
import { parseDump } from './testkit';

const fixtures = renderFixtures();
const byName = new Map(fixtures.map((f) => [f.name, f]));
const nodes = (name: string) => {
  const f = byName.get(name);
  if (!f) throw new Error(`no fixture ${name}`);
  return parseDump(f.xml).all;
};

test('every screen, page and template, in both id styles, with unique names', () => {
  expect(byName.size).toBe(fixtures.length);
  for (const style of ['default', 'generic']) {
    for (const name of [
      'launcher',
      'loading',
      'goods_detail/937122477375',
      'goods_delisted/600000000105',
      'sku_panel/937122477375/initial',
      'sku_panel/937122477375/complete',
      'sku_panel/quantity_2',
      'cashier',
      'orders/unpaid',
      'orders/empty',
      'captcha',
      'payment_handoff',
      'page/login',
      'page/network_error',
      'page/address_missing',
      'overlay/limited_deal_mask',
      'overlay/red_packet',
      'overlay/notification_prompt/final_panel',
      'overlay/order_success/after_submit',
    ])
      expect(byName.has(`${style}/${name}`)).toBe(true);
  }
});

test('the screens are what they are named', () => {
  expect(nodes('default/goods_detail/937122477375').some((n) => n.attrs.text === '快要抢光 ¥12.56')).toBe(true);
  expect(nodes('default/sku_panel/937122477375/complete').some((n) => n.attrs.text?.startsWith('已选：'))).toBe(true);
  expect(nodes('default/sku_panel/quantity_2').some((n) => n.attrs.text?.startsWith('提交订单 ¥'))).toBe(true);
  expect(nodes('default/cashier').some((n) => n.attrs.text === '立即支付')).toBe(true);
  expect(nodes('default/orders/unpaid').some((n) => n.attrs.text?.startsWith('订单编号：'))).toBe(true);
  expect(nodes('default/page/login').some((n) => n.attrs.text === '微信登录')).toBe(true);
  const mask = nodes('default/overlay/limited_deal_mask');
  // The goods page is still underneath, the mask's button comes after it.
  const entry = mask.findIndex((n) => n.attrs.text === '快要抢光 ¥12.56');
  const deal = mask.findIndex((n) => n.attrs.text === '立即领取 ¥0.01 抢购');
  expect(entry).toBeGreaterThan(0);
  expect(deal).toBeGreaterThan(entry);
  const final = nodes('default/overlay/notification_prompt/final_panel');
  expect(final.some((n) => n.attrs.text === '开启通知')).toBe(true);
  expect(final.some((n) => n.attrs.text?.startsWith('提交订单 ¥'))).toBe(true);
});

test('generic fixtures carry no descriptive id, default ones do, same texts', () => {
  for (const f of fixtures.filter((x) => x.name.startsWith('generic/'))) {
    const all = parseDump(f.xml).all;
    const ids = all.map((n) => n.attrs['resource-id']);
    expect(
      ids.every((id) => id === '' || id === 'com.xunmeng.pinduoduo:id/pdd' || !id?.startsWith('com.xunmeng')),
    ).toBe(true);
    const twin = nodes(f.name.replace(/^generic\//, 'default/'));
    expect(all.map((n) => n.attrs.text)).toEqual(twin.map((n) => n.attrs.text));
  }
  expect(
    nodes('default/goods_detail/937122477375').some((n) => n.attrs['resource-id']?.endsWith('/ll_bottom_buy')),
  ).toBe(true);
});

test('a custom catalog and screencaps on request', () => {
  const catalog = defaultCatalog();
  catalog.goods = catalog.goods.filter((g) => g.goods_id === '937122477375');
  const wanted = ['generic/overlay/limited_deal_mask', 'generic/page/risk_slider'];
  const some = renderFixtures({ catalog, png: true, styles: ['generic'], only: (n) => wanted.includes(n) });
  expect(some).toHaveLength(2);
  for (const f of some) expect(PNG.sync.read(f.png as Buffer).width).toBe(1080);
});
