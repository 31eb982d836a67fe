import type { Client } from '@devicefarmer/adbkit';
import {
  api,
  byId,
  center,
  dump,
  fillPanel,
  one,
  openGoods,
  option,
  ordersOf,
  rid,
  settledDump,
  sh,
  tap,
  textOf,
  useTestSim,
  type DeviceClient,
  type XNode,
} from './testkit';

let client: Client;
let control: string;
let dev: DeviceClient;
const SERIAL = 'sim-phone-1';

useTestSim((rig) => ({ client, control, dev } = rig));

const text = textOf;
const orders = () =>
  ordersOf<{
    order_no: string;
    goods_id: string;
    options: string[];
    quantity: number;
    total_cent: number;
    status: string;
  }>(control, SERIAL);
const submitNode = (all: XNode[]) => one(all, (n) => n.attrs['resource-id'] === rid('tv_sku_confirm'), 'submit');

describe('dump format', () => {
  test('one line, attributes in uiautomator order, /dev/tty trailer on the same line', async () => {
    await openGoods(dev, '937122477375');
    const raw = await sh(dev, 'uiautomator dump /dev/tty');
    expect(
      raw.startsWith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node "),
    ).toBe(true);
    expect(raw).toMatch(/<\/hierarchy>UI hierchary dumped to: \/dev\/tty\n$/);
    expect(raw.indexOf('\n')).toBe(raw.length - 1);
    const attrs = [...raw.matchAll(/<node ([^>]*?)\/?>/g)].map((m) =>
      [...(m[1] ?? '').matchAll(/([a-z-]+)="/g)].map((a) => a[1]),
    );
    expect(attrs.length).toBeGreaterThan(10);
    for (const a of attrs) {
      expect(a).toEqual([
        'index',
        'text',
        'resource-id',
        'class',
        'package',
        'content-desc',
        'checkable',
        'checked',
        'clickable',
        'enabled',
        'focusable',
        'focused',
        'scrollable',
        'long-clickable',
        'password',
        'selected',
        'bounds',
      ]);
    }
    const { all } = await dump(dev);
    expect(all[0]?.attrs.bounds).toBe('[0,0][1080,2376]');
    expect(all.every((n) => /^\[\d+,\d+\]\[\d+,\d+\]$/.test(n.attrs.bounds ?? ''))).toBe(true);
    expect(
      all
        .filter((n) => n.attrs['resource-id'])
        .every((n) => n.attrs['resource-id']?.startsWith('com.xunmeng.pinduoduo:id/')),
    ).toBe(true);
  });

  test('the first dump after am start shows the loading screen', async () => {
    await dev.startActivity({
      action: 'android.intent.action.VIEW',
      data: 'pinduoduo://com.xunmeng.pinduoduo/goods.html?goods_id=937122477375',
    });
    const first = await dump(dev);
    expect(byId(first.all, 'pdd_loading_view')).toHaveLength(1);
    expect(byId(first.all, 'll_bottom_buy')).toHaveLength(0);
    const second = await dump(dev);
    expect(byId(second.all, 'll_bottom_buy')).toHaveLength(1);
  });
});

describe('goods page and spec panel', () => {
  test('goods page: title, shop, promo trap, entry container, non-clickable 免拼购买', async () => {
    const { all } = await openGoods(dev, '937122477375');
    expect(text(all, 'tv_goods_title')).toBe('【现货】春秋款西装外套男士休闲单西');
    expect(text(all, 'tv_mall_name')).toBe('优衣仓男装旗舰店');
    expect(text(all, 'tv_goods_price')).toBe('¥12.56-19.90');
    const promo = one(all, (n) => n.attrs['resource-id'] === rid('tv_goods_promo'));
    expect(promo.attrs.text).toBe('快要抢光');
    expect(promo.attrs.clickable).toBe('false');
    const entryText = one(all, (n) => n.attrs['resource-id'] === rid('tv_bottom_buy_price'));
    expect(entryText.attrs.text).toBe('快要抢光 ¥12.56');
    expect(entryText.attrs.clickable).toBe('false');
    expect(entryText.parent?.attrs.clickable).toBe('true');
    const mianpin = one(all, (n) => n.attrs.text === '免拼购买');
    expect(mianpin.attrs.clickable).toBe('false');
    expect(mianpin.parent).toBe(entryText.parent);
    // The promo in the content does not open the panel.
    await tap(dev, promo);
    expect(byId((await dump(dev)).all, 'll_sku_panel')).toHaveLength(0);
  });

  test('delisted goods', async () => {
    const { all } = await openGoods(dev, '600000000105');
    expect(text(all, 'tv_goods_offline')).toBe('商品已下架');
    expect(byId(all, 'll_bottom_buy')).toHaveLength(0);
    expect(one(all, (n) => n.attrs['resource-id'] === rid('tv_bottom_offline')).attrs.enabled).toBe('false');
  });

  test('panel: nothing selected, sizes below the fold until one swipe, range then fixed price, tiered total', async () => {
    const page = await openGoods(dev, '937122477375');
    await tap(
      dev,
      one(page.all, (n) => n.attrs['resource-id'] === rid('tv_bottom_buy_price')),
    );
    let d = await settledDump(dev);
    expect(text(d.all, 'tv_sku_selected')).toBe('请选择：颜色分类 尺码');
    expect(text(d.all, 'tv_sku_price')).toBe('¥12.56-13.90');
    expect(
      byId(d.all, 'tv_sku_option').map((n) => [n.attrs.text, n.attrs.selected, n.attrs.clickable, n.attrs.class]),
    ).toEqual([
      ['黑色', 'false', 'true', 'android.widget.TextView'],
      ['白色', 'false', 'true', 'android.widget.TextView'],
    ]);
    expect(one(d.all, (n) => n.attrs['resource-id'] === rid('sv_sku_content')).attrs.scrollable).toBe('true');
    await tap(dev, option(d.all, '黑色'));
    d = await dump(dev);
    expect(option(d.all, '黑色').attrs.selected).toBe('true');
    expect(text(d.all, 'tv_sku_selected')).toBe('请选择：尺码');
    expect(text(d.all, 'tv_sku_price')).toBe('券后¥12.88'); // black's sizes share one price
    expect(d.all.some((n) => n.attrs.text === 'M')).toBe(false); // still below the fold
    await sh(dev, 'input swipe 540 1900 540 1300 300');
    d = await dump(dev);
    await tap(dev, option(d.all, 'M'));
    d = await dump(dev);
    expect(text(d.all, 'tv_sku_selected')).toBe('已选：黑色 M');
    expect(text(d.all, 'tv_sku_price')).toBe('券后¥12.88');
    expect(text(d.all, 'tv_sku_list_price')).toBe('¥19.90');
    expect(submitNode(d.all).attrs.text).toBe('提交订单 ¥12.88');
    expect(one(d.all, (n) => n.attrs['resource-id'] === rid('tv_sku_minus')).attrs.enabled).toBe('false');
    await tap(
      dev,
      one(d.all, (n) => n.attrs['resource-id'] === rid('tv_sku_plus')),
    );
    d = await dump(dev);
    expect(text(d.all, 'tv_sku_count')).toBe('2');
    expect(text(d.all, 'tv_sku_price')).toBe('券后¥32.76'); // non-linear: not 2 × 12.88
    expect(submitNode(d.all).attrs.text).toBe('提交订单 ¥32.76');
  });

  test('white: sizes differ in price, sold-out L is disabled and a tap on it does nothing but is logged', async () => {
    let d = await fillPanel(dev, '937122477375', ['白色']);
    expect(text(d.all, 'tv_sku_price')).toBe('¥12.56-13.90');
    await sh(dev, 'input swipe 540 1900 540 1300 300');
    d = await dump(dev);
    const l = option(d.all, 'L');
    expect(l.attrs.enabled).toBe('false');
    await tap(dev, l);
    d = await dump(dev);
    expect(option(d.all, 'L').attrs.selected).toBe('false');
    const taps = (
      await api<{ node: { text: string } | null; screen: string }[]>(control, 'GET', `/devices/${SERIAL}/taps`)
    ).body;
    expect(taps[taps.length - 1]).toMatchObject({ node: { text: 'L' }, screen: 'sku_panel' });
  });

  test('prefix-colliding values are separate options; + is disabled at stock', async () => {
    let d = await fillPanel(dev, '600000000101', ['红', 'M']);
    expect(option(d.all, '红').attrs.selected).toBe('true');
    expect(text(d.all, 'tv_sku_selected')).toBe('已选：红 M');
    expect(text(d.all, 'tv_sku_price')).toBe('¥9.90');
    d = await fillPanel(dev, '600000000102', ['白色', '1']);
    expect(option(d.all, '1').attrs.selected).toBe('true');
    expect(option(d.all, '10').attrs.selected).toBe('false');
    expect(text(d.all, 'tv_sku_price')).toBe('券后¥3.50');
    d = await fillPanel(dev, '600000000104', ['粉色', 'L'], 2);
    expect(text(d.all, 'tv_sku_count')).toBe('2');
    expect(one(d.all, (n) => n.attrs['resource-id'] === rid('tv_sku_plus')).attrs.enabled).toBe('false');
    expect(option(d.all, '蓝色').attrs.enabled).toBe('false');
  });
});

describe('submit, cashier, orders', () => {
  test('one tap on 提交订单 creates exactly one unpaid order and shows the cashier; payment taps are logged', async () => {
    const d = await fillPanel(dev, '937122477375', ['黑色', 'M'], 2);
    await tap(dev, submitNode(d.all));
    expect(await orders()).toMatchObject([
      { goods_id: '937122477375', options: ['黑色', 'M'], quantity: 2, total_cent: 3276, status: 'unpaid' },
    ]);
    const cashier = await settledDump(dev);
    expect(text(cashier.all, 'tv_cashier_amount')).toBe('¥32.76');
    for (const t of ['立即支付', '免密支付', '先用后付'])
      expect(cashier.all.filter((n) => n.attrs.text === t)).toHaveLength(1);
    expect(await orders()).toHaveLength(1);
    const pay = one(cashier.all, (n) => n.attrs.text === '立即支付');
    await tap(dev, pay);
    const taps = (
      await api<
        {
          x: number;
          y: number;
          node: { text: string } | null;
          target: { resource_id: string } | null;
          screen: string;
        }[]
      >(control, 'GET', `/devices/${SERIAL}/taps`)
    ).body;
    const last = taps[taps.length - 1];
    expect(last).toMatchObject({
      node: { text: '立即支付' },
      target: { resource_id: rid('ll_pay_confirm') },
      screen: 'cashier',
    });
    expect([last?.x, last?.y]).toEqual(center(pay));
    expect((await orders())[0]?.status).toBe('payment_started');
  });

  test('orders list (待付款) shows what reconciliation needs', async () => {
    const d = await fillPanel(dev, '937122477375', ['黑色', 'M'], 2);
    await tap(dev, submitNode(d.all));
    const [order] = await orders();
    await dev.startActivity({
      action: 'android.intent.action.VIEW',
      data: 'pinduoduo://com.xunmeng.pinduoduo/orders.html?type=1',
    });
    const list = await settledDump(dev);
    expect(
      one(list.all, (n) => n.attrs.text === '待付款' && n.attrs['resource-id'] === rid('tv_order_tab')).attrs.selected,
    ).toBe('true');
    expect(text(list.all, 'tv_order_sn')).toBe(`订单编号：${order?.order_no}`);
    expect(text(list.all, 'tv_order_spec')).toBe('黑色；M');
    expect(text(list.all, 'tv_order_count')).toBe('x2');
    expect(text(list.all, 'tv_order_amount')).toBe('实付：¥32.76');
    expect(text(list.all, 'tv_order_status')).toBe('待付款');
    expect(text(list.all, 'tv_order_time')).toMatch(/^下单时间：\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  test('back closes the panel, then leaves the goods page', async () => {
    await fillPanel(dev, '937122477375', ['黑色']);
    await sh(dev, 'input keyevent 4');
    expect(byId((await dump(dev)).all, 'll_bottom_buy')).toHaveLength(1);
    await sh(dev, 'input keyevent KEYCODE_BACK');
    expect((await dump(dev)).all[0]?.attrs.package).toBe('com.android.launcher3');
  });
});

describe('control API', () => {
  test('bad input is a 400 naming the field', async () => {
    const bad = await api<{ field: string }>(control, 'PUT', `/devices/${SERIAL}/faults`, { stale_dump_rate: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('stale_dump_rate');
    const cat = await api<{ field: string }>(control, 'PUT', '/catalog', {
      schema_version: 1,
      goods: [{ goods_id: 'x1' }],
    });
    expect(cat.status).toBe(400);
    expect(cat.body.field).toBe('goods.0.goods_id');
    expect((await api(control, 'POST', '/devices', { serial: 'bad serial!' })).status).toBe(400);
    expect((await api(control, 'GET', '/devices/nope/orders')).status).toBe(404);
  });

  test('PUT /catalog replaces the goods for every phone; GET screen returns the XML', async () => {
    const original = (await api(control, 'GET', '/catalog')).body;
    try {
      const res = await api(control, 'PUT', '/catalog', {
        schema_version: 1,
        goods: [
          {
            goods_id: '1',
            title: '单品',
            shop_name: '店',
            status: 'on_sale',
            dimensions: [{ name: '规格', values: ['A'] }],
            skus: [{ options: ['A'], price_cent: 100, stock: 1 }],
          },
        ],
      });
      expect(res.status).toBe(200);
      const { all } = await openGoods(client.getDevice('sim-phone-2'), '1');
      expect(text(all, 'tv_goods_title')).toBe('单品');
      const screen = await api<string>(control, 'GET', '/devices/sim-phone-2/screen');
      expect(screen.body).toContain('text="单品"');
      const devices = (await api<{ serial: string; screen: string; app_version: string }[]>(control, 'GET', '/devices'))
        .body;
      expect(devices.find((x) => x.serial === 'sim-phone-2')).toMatchObject({
        screen: 'goods_detail',
        app_version: '8.17.0',
      });
    } finally {
      await api(control, 'PUT', '/catalog', original);
    }
  });
});
