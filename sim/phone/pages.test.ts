import {
  api,
  byId,
  dump,
  fillPanel,
  one,
  openGoods,
  ordersOf,
  putPhone,
  rid,
  screenOf,
  settledDump,
  sh,
  tap,
  useTestSim,
  type DeviceClient,
  type XNode,
} from './testkit';

let control: string;
let dev: DeviceClient;
const SERIAL = 'sim-phone-1';
const GOODS = '937122477375';

useTestSim((rig) => ({ control, dev } = rig));

const faults = (f: object) => putPhone(control, SERIAL, 'faults', f);
const screen = () => screenOf(control, SERIAL);
const hasText = (all: XNode[], text: string): boolean => all.some((n) => n.attrs.text === text);
const orders = () => ordersOf(control, SERIAL);

/** What tells each page apart on a real phone (sim/phone/SCREENS.md "Built-in pages"). */
const SIGNATURE: Record<string, string[]> = {
  login: ['手机登录', '微信登录'],
  risk_slider: ['安全验证', '拖动滑块完成验证'],
  risk_face: ['身份验证', '开始验证'],
  risk_sms: ['短信验证', '获取验证码'],
  network_error: ['网络不给力，请检查网络设置', '重新加载'],
  app_update: ['版本更新', '立即更新'],
  sold_out: ['已售罄', '【现货】春秋款西装外套男士休闲单西'],
  address_missing: ['新建收货地址', '保存并使用'],
};

describe.each(Object.keys(SIGNATURE))('page %s', (page) => {
  test('shown instead of the goods page when the link opens', async () => {
    await faults({ page_on: { open: page } });
    const { all } = await openGoods(dev, GOODS);
    for (const t of SIGNATURE[page] ?? []) expect(hasText(all, t)).toBe(true);
    expect(byId(all, 'll_bottom_buy')).toHaveLength(0);
    expect(await screen()).toBe(page);
  });
});

test('a sticky page survives back and a re-opened link, and goes when the faults are cleared', async () => {
  await faults({ page_on: { open: 'login' } });
  await openGoods(dev, GOODS);
  await sh(dev, 'input keyevent 4');
  expect(hasText((await settledDump(dev)).all, '微信登录')).toBe(true);
  expect(hasText((await openGoods(dev, GOODS)).all, '微信登录')).toBe(true);
  await sh(dev, 'am force-stop com.xunmeng.pinduoduo');
  expect(hasText((await openGoods(dev, GOODS)).all, '微信登录')).toBe(true);
  await api(control, 'DELETE', `/devices/${SERIAL}/faults`);
  const after = await openGoods(dev, GOODS);
  expect(hasText(after.all, '微信登录')).toBe(false);
  expect(byId(after.all, 'll_bottom_buy')).toHaveLength(1);
});

test('network_error: 重新加载 does not help, opening the goods link again does; page_times counts', async () => {
  await faults({ page_on: { open: 'network_error' }, page_times: 2 });
  const first = await openGoods(dev, GOODS);
  await tap(
    dev,
    one(first.all, (n) => n.attrs.text === '重新加载'),
  );
  expect(hasText((await settledDump(dev)).all, '重新加载')).toBe(true);
  expect(hasText((await openGoods(dev, GOODS)).all, '重新加载')).toBe(true);
  const third = await openGoods(dev, GOODS);
  expect(hasText(third.all, '重新加载')).toBe(false);
  expect(byId(third.all, 'll_bottom_buy')).toHaveLength(1);
});

test('panel: the entry leads to the risk page instead of the spec panel', async () => {
  await faults({ page_on: { panel: 'risk_slider' } });
  const { all } = await openGoods(dev, GOODS);
  expect(byId(all, 'll_bottom_buy')).toHaveLength(1);
  await tap(
    dev,
    one(all, (n) => n.attrs['resource-id'] === rid('tv_bottom_buy_price')),
  );
  const d = await settledDump(dev);
  expect(hasText(d.all, '拖动滑块完成验证')).toBe(true);
  expect(byId(d.all, 'll_sku_panel')).toHaveLength(0);
});

test('final_panel: address_missing replaces the complete panel; nothing can be submitted', async () => {
  await faults({ page_on: { final_panel: 'address_missing' } });
  const d = await fillPanel(dev, GOODS, ['黑色', 'M']);
  expect(hasText(d.all, '新建收货地址')).toBe(true);
  expect(byId(d.all, 'll_sku_confirm')).toHaveLength(0);
  await sh(dev, 'input tap 540 2276');
  expect(await orders()).toEqual([]);
});

test('after_submit and orders moments', async () => {
  await faults({ page_on: { after_submit: 'risk_sms' } });
  const d = await fillPanel(dev, GOODS, ['黑色', 'M']);
  await tap(
    dev,
    one(d.all, (n) => n.attrs['resource-id'] === rid('ll_sku_confirm')),
  );
  expect(hasText((await settledDump(dev)).all, '获取验证码')).toBe(true);
  await faults({ page_on: { orders: 'login' } });
  await dev.startActivity({
    action: 'android.intent.action.VIEW',
    data: 'pinduoduo://com.xunmeng.pinduoduo/orders.html?type=1',
  });
  expect(hasText((await settledDump(dev)).all, '手机登录')).toBe(true);
});

test('unknown page or moment names are refused with the field named', async () => {
  for (const [body, field] of [
    [{ page_on: { open: 'captcha_page' } }, 'page_on.open'],
    [{ page_on: { checkout: 'login' } }, 'page_on'],
    [{ id_style: 'short' }, 'id_style'],
  ] as const) {
    const res = await api<{ field: string }>(control, 'PUT', `/devices/${SERIAL}/faults`, body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  }
});

describe('id_style generic', () => {
  const shape = (all: XNode[]) => all.map((n) => [n.attrs.class, n.attrs.text, n.attrs.bounds, n.children.length]);

  test.each([
    ['goods page', () => openGoods(dev, GOODS)],
    ['final panel', () => fillPanel(dev, GOODS, ['黑色', 'M'], 2)],
  ])('%s: same texts, classes, structure and bounds; no descriptive id', async (_name, reach) => {
    const plain = await reach();
    await api(control, 'POST', `/devices/${SERIAL}/reset`);
    await faults({ id_style: 'generic' });
    const generic = await reach();
    expect(shape(generic.all)).toEqual(shape(plain.all));
    const ids = new Set(generic.all.map((n) => n.attrs['resource-id']));
    expect([...ids].sort()).toEqual(['', 'com.xunmeng.pinduoduo:id/pdd']);
    expect(new Set(plain.all.map((n) => n.attrs['resource-id'])).size).toBeGreaterThan(10);
  });

  test('a purchase still works by texts, and the loading screen is still a ProgressBar', async () => {
    await faults({ id_style: 'generic' });
    await dev.startActivity({
      action: 'android.intent.action.VIEW',
      data: `https://mobile.yangkeduo.com/goods.html?goods_id=${GOODS}`,
    });
    const loading = await dump(dev);
    expect(loading.all.some((n) => n.attrs.class === 'android.widget.ProgressBar')).toBe(true);
    const page = await dump(dev);
    await tap(
      dev,
      one(page.all, (n) => n.attrs.text === '快要抢光 ¥12.56'),
    );
    const taps = (await api<{ target: { resource_id: string } }[]>(control, 'GET', `/devices/${SERIAL}/taps`)).body;
    expect(taps[0]?.target.resource_id).toBe('com.xunmeng.pinduoduo:id/pdd');
    expect(hasText((await dump(dev)).all, '请选择：颜色分类 尺码')).toBe(true);
  });
});
