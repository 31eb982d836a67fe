import type { Client } from '@devicefarmer/adbkit';
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
  textOf,
  useTestSim,
  type DeviceClient,
  type XNode,
} from './testkit';

let client: Client;
let control: string;
let dev: DeviceClient;
const SERIAL = 'sim-phone-1';

useTestSim((rig) => ({ client, control, dev } = rig), { reset: [SERIAL, 'sim-phone-2'] });

const faults = (f: object) => putPhone(control, SERIAL, 'faults', f);
const orders = () => ordersOf<{ total_cent: number; status: string }>(control, SERIAL);
const text = textOf;
const submit = (all: XNode[]) => one(all, (n) => n.attrs['resource-id'] === rid('ll_sku_confirm'), 'submit container');
const screen = (serial = SERIAL) => screenOf(control, serial);

test('realistic latency makes a dump measurably slower than zero (by completion order)', async () => {
  await faults({ latency: 'realistic' });
  const finished: string[] = [];
  const slow = sh(dev, 'uiautomator dump /dev/tty').then(() => finished.push('realistic'));
  const fast = sh(client.getDevice('sim-phone-2'), 'uiautomator dump /dev/tty').then(() => finished.push('zero'));
  await Promise.all([slow, fast]);
  expect(finished).toEqual(['zero', 'realistic']);
});

test('realistic: a dump waits for the page to settle, as uiautomator waits for idle; zero: the first dump after am start is the loading screen', async () => {
  const open = (d: DeviceClient) =>
    d.startActivity({
      action: 'android.intent.action.VIEW',
      data: 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375',
    });
  await faults({ latency: 'realistic' });
  await open(dev);
  expect(screenName(await sh(dev, 'uiautomator dump /dev/tty'))).toBe('goods');
  // a counted loading dump is still a fault a test can ask for on the realistic profile
  await faults({ latency: 'realistic', loading_dumps: 1 });
  await open(dev);
  expect(screenName(await sh(dev, 'uiautomator dump /dev/tty'))).toBe('loading');
  expect(screenName(await sh(dev, 'uiautomator dump /dev/tty'))).toBe('goods');

  const zero = client.getDevice('sim-phone-2');
  await open(zero);
  expect(screenName(await sh(zero, 'uiautomator dump /dev/tty'))).toBe('loading');
  expect(screenName(await sh(zero, 'uiautomator dump /dev/tty'))).toBe('goods');
});

/** what a dump shows, by the nodes only that screen has */
function screenName(xml: string): 'loading' | 'goods' | 'other' {
  if (xml.includes(rid('pdd_loading_view'))) return 'loading';
  if (xml.includes(rid('goods_detail_list'))) return 'goods';
  return 'other';
}

test('app_version changes what dumpsys reports', async () => {
  await faults({ app_version: '8.18.0' });
  expect(await sh(dev, 'dumpsys package com.xunmeng.pinduoduo')).toMatch(/^\s*versionName=8\.18\.0$/m);
  const devices = (await api<{ serial: string; app_version: string }[]>(control, 'GET', '/devices')).body;
  expect(devices.find((d) => d.serial === SERIAL)?.app_version).toBe('8.18.0');
});

test('disconnect_after_commands: n commands work, then the phone is gone until faults are cleared', async () => {
  await faults({ disconnect_after_commands: 2 });
  expect(await sh(dev, 'echo 1')).toBe('1\n');
  expect(await sh(dev, 'echo 2')).toBe('2\n');
  await expect(sh(dev, 'echo 3')).rejects.toThrow(`device '${SERIAL}' not found`);
  expect((await client.listDevices()).map((d: { id: string }) => d.id)).toEqual(['sim-phone-2']);
  await api(control, 'DELETE', `/devices/${SERIAL}/faults`);
  expect(await sh(dev, 'echo 4')).toBe('4\n');
});

test('stale_dump_rate=1: the first dump after a navigation is the previous screen, byte for byte', async () => {
  const before = await dump(dev);
  await faults({ stale_dump_rate: 1, loading_dumps: 0 });
  await dev.startActivity({
    action: 'android.intent.action.VIEW',
    data: 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375',
  });
  const stale = await dump(dev);
  expect(stale.xml).toBe(before.xml);
  const fresh = await dump(dev);
  expect(byId(fresh.all, 'll_bottom_buy')).toHaveLength(1);
});

test('loading_dumps sets how many dumps show the loading screen', async () => {
  await faults({ loading_dumps: 3 });
  await dev.startActivity({
    action: 'android.intent.action.VIEW',
    data: 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375',
  });
  for (let i = 0; i < 3; i++) expect(byId((await dump(dev)).all, 'pdd_loading_view')).toHaveLength(1);
  expect(byId((await dump(dev)).all, 'll_bottom_buy')).toHaveLength(1);
});

describe('captcha_on', () => {
  test('open: the goods link lands on the captcha page', async () => {
    await faults({ captcha_on: 'open' });
    const { all } = await openGoods(dev, '937122477375');
    expect(text(all, 'tv_captcha_title')).toBe('安全验证');
    expect(byId(all, 'll_bottom_buy')).toHaveLength(0);
  });

  test('panel: the entry opens the captcha instead of the panel', async () => {
    await faults({ captcha_on: 'panel' });
    const { all } = await openGoods(dev, '937122477375');
    await tap(
      dev,
      one(all, (n) => n.attrs['resource-id'] === rid('tv_bottom_buy_price')),
    );
    const after = await settledDump(dev);
    expect(byId(after.all, 'iv_captcha_slider')).toHaveLength(1);
    expect(byId(after.all, 'll_sku_panel')).toHaveLength(0);
  });

  test('submit: no order, captcha page', async () => {
    const d = await fillPanel(dev, '937122477375', ['黑色', 'M']);
    await faults({ captcha_on: 'submit' });
    await tap(dev, submit(d.all));
    expect(byId((await settledDump(dev)).all, 'tv_captcha_title')).toHaveLength(1);
    expect(await orders()).toEqual([]);
  });
});

describe('price_change', () => {
  test('after gate1: the dump that showed the full selection had the old price, the next one the new', async () => {
    await faults({
      price_change: { goods_id: '937122477375', after: 'gate1', price_cent: 1500, tier_totals_cent: { '2': 3600 } },
    });
    const d = await fillPanel(dev, '937122477375', ['黑色', 'M']);
    expect(text(d.all, 'tv_sku_price')).toBe('券后¥12.88');
    const next = await dump(dev);
    expect(text(next.all, 'tv_sku_price')).toBe('券后¥15.00');
    await tap(
      dev,
      one(next.all, (n) => n.attrs['resource-id'] === rid('tv_sku_plus')),
    );
    expect(text((await dump(dev)).all, 'tv_sku_price')).toBe('券后¥36.00');
  });

  test('after gate2: the second full-selection dump still has the old total, the submit control then shows the new', async () => {
    await faults({ price_change: { goods_id: '937122477375', after: 'gate2', price_cent: 1500 } });
    const d = await fillPanel(dev, '937122477375', ['黑色', 'M'], 2);
    expect(text(d.all, 'tv_sku_price')).toBe('券后¥32.76'); // gate2 read
    const gate3 = await dump(dev);
    expect(text(gate3.all, 'tv_sku_confirm')).toBe('提交订单 ¥30.00');
    await tap(dev, submit(gate3.all));
    expect((await orders())[0]?.total_cent).toBe(3000);
  });
});

describe('submit_outcome', () => {
  const run = async (outcome: string) => {
    const d = await fillPanel(dev, '937122477375', ['黑色', 'M']);
    await faults({ submit_outcome: outcome });
    await tap(dev, submit(d.all));
    await dump(dev); // the loading dump right after the tap
    return dump(dev);
  };

  test('created_then_hang: order exists, the screen keeps loading', async () => {
    const d = await run('created_then_hang');
    expect(byId(d.all, 'pdd_loading_view')).toHaveLength(1);
    expect(byId((await dump(dev)).all, 'pdd_loading_view')).toHaveLength(1);
    expect(await orders()).toHaveLength(1);
  });

  test('not_created: panel stays with a toast, no order', async () => {
    const d = await run('not_created');
    expect(
      d.all.some((n) => n.attrs.class === 'android.widget.Toast' && n.attrs.text === '当前购买人数过多，请稍后再试'),
    ).toBe(true);
    expect(byId(d.all, 'll_sku_panel')).toHaveLength(1);
    expect(await orders()).toEqual([]);
  });

  test('payment_handoff: order exists, an external payment app is in front', async () => {
    const d = await run('payment_handoff');
    expect(d.all[0]?.attrs.package).toBe('com.eg.android.AlipayGphone');
    expect(await orders()).toHaveLength(1);
    expect(await screen()).toBe('payment_handoff');
  });

  test('captcha: captcha page, no order', async () => {
    const d = await run('captcha');
    expect(byId(d.all, 'tv_captcha_title')).toHaveLength(1);
    expect(await orders()).toEqual([]);
  });
});

test('duplicate_submit_control: two controls with the same text, both clickable', async () => {
  await faults({ duplicate_submit_control: true });
  const d = await fillPanel(dev, '937122477375', ['黑色', 'M']);
  const labels = d.all.filter((n) => n.attrs.text === '提交订单 ¥12.88');
  expect(labels).toHaveLength(2);
  expect(labels.every((n) => n.parent?.attrs.clickable === 'true')).toBe(true);
  expect(new Set(labels.map((n) => n.parent?.attrs['resource-id'])).size).toBe(2);
});
