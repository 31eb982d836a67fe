import Adb from '@devicefarmer/adbkit';
import { PNG } from 'pngjs';
import {
  api,
  byId,
  center,
  dump,
  fillPanel,
  one,
  openGoods,
  parseDump,
  putPhone,
  rid,
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

type Rect = [number, number, number, number];
interface TemplateInfo {
  name: string;
  description: string;
  close: { resource_id: string; text: string; content_desc: string; class: string; bounds: Rect };
}
interface Tap {
  node: { text: string; resource_id: string } | null;
  target: { text: string; resource_id: string } | null;
  screen: string;
  overlay: string | null;
  overlay_action: string | null;
}

let templates: TemplateInfo[];

useTestSim(async (rig) => {
  ({ control, dev } = rig);
  templates = (await api<TemplateInfo[]>(control, 'GET', '/overlays/templates')).body;
});

const setOverlays = (overlays: object[]) => putPhone(control, SERIAL, 'overlays', { overlays });
const lastTap = async (): Promise<Tap> => {
  const taps = (await api<Tap[]>(control, 'GET', `/devices/${SERIAL}/taps`)).body;
  return taps[taps.length - 1] as Tap;
};
const orders = async () => (await api<unknown[]>(control, 'GET', `/devices/${SERIAL}/orders`)).body;
const screen = async () =>
  (await api<{ serial: string; screen: string }[]>(control, 'GET', '/devices')).body.find((d) => d.serial === SERIAL)
    ?.screen;
const boundsText = (b: Rect): string => `[${b[0]},${b[1]}][${b[2]},${b[3]}]`;
const tapAt = (x: number, y: number) => sh(dev, `input tap ${x} ${y}`);
const template = (name: string): TemplateInfo => templates.find((t) => t.name === name) as TemplateInfo;
const closeNode = (all: XNode[], t: TemplateInfo): XNode | undefined =>
  all.find(
    (n) =>
      n.attrs.class === t.close.class &&
      n.attrs.bounds === boundsText(t.close.bounds) &&
      n.attrs.text === t.close.text &&
      n.attrs['content-desc'] === t.close.content_desc,
  );
/** The hierarchy root's child an overlay node belongs to. */
const rootChild = (n: XNode): XNode => (n.parent?.parent ? rootChild(n.parent) : n);

const CUSTOM = {
  id: 'promo-1',
  bounds: [60, 600, 1020, 1900],
  nodes: [
    {
      text: '限时福利',
      resource_id: 'com.xunmeng.pinduoduo:id/x_title',
      class: 'android.widget.TextView',
      content_desc: '',
      clickable: false,
      bounds: [100, 650, 980, 760],
      action: 'none',
    },
    {
      text: '',
      resource_id: 'com.xunmeng.pinduoduo:id/x_close',
      class: 'android.widget.ImageView',
      content_desc: '关闭',
      clickable: true,
      bounds: [900, 620, 1000, 720],
      action: 'dismiss',
    },
  ],
};
const hasCustom = (all: XNode[]): boolean => byId(all, 'x_close').length === 1;

test('templates: each names exactly one closing control', async () => {
  expect(templates.map((t) => t.name).sort()).toEqual(
    [
      'cash_gift',
      'float_video',
      'free_order',
      'limited_deal_mask',
      'notification_prompt',
      'order_success',
      'red_packet',
      'subsidy_coupon',
      'teen_mode',
      'update_prompt',
    ].sort(),
  );
  expect(template('update_prompt').close.text).toBe('以后再说');
  expect(template('order_success').close.text).toBe('关闭弹窗');
  expect(template('red_packet').close).toMatchObject({ resource_id: '', text: '', class: 'android.widget.ImageView' });
});

describe.each([
  'update_prompt',
  'red_packet',
  'cash_gift',
  'subsidy_coupon',
  'free_order',
  'order_success',
  'teen_mode',
  'notification_prompt',
  'float_video',
  'limited_deal_mask',
])('template %s', (name) => {
  test('appears after after_dumps dumps of its moment, above the page, and its close control dismisses it for good', async () => {
    const t = template(name);
    await setOverlays([{ template: name, when: 'open', after_dumps: 1 }]);
    const first = await openGoods(dev, GOODS);
    expect(closeNode(first.all, t)).toBeUndefined();
    const second = await dump(dev);
    const close = closeNode(second.all, t);
    expect(close).toBeDefined();
    // The page is still underneath (in the dump), the overlay is the last subtree of the root.
    expect(byId(second.all, 'll_bottom_buy')).toHaveLength(1);
    const root = second.all[0] as XNode;
    expect(rootChild(close as XNode)).toBe(root.children[root.children.length - 1]);
    await tap(dev, close as XNode);
    expect(await lastTap()).toMatchObject({ overlay: name, overlay_action: 'dismiss', screen: 'goods_detail' });
    for (let i = 0; i < 3; i++) {
      const after = await dump(dev);
      expect(closeNode(after.all, t)).toBeUndefined();
      expect(byId(after.all, 'll_bottom_buy')).toHaveLength(1);
    }
  });

  test('no other control of it dismisses it', async () => {
    const t = template(name);
    await setOverlays([{ template: name, when: 'open' }]);
    const { all } = await openGoods(dev, GOODS);
    const close = closeNode(all, t) as XNode;
    const overlay = rootChild(close);
    const inOverlay = (n: XNode): boolean => n === overlay || (n.parent !== null && inOverlay(n.parent));
    const others = all.filter((n) => inOverlay(n) && n.attrs.clickable === 'true' && n !== close);
    for (const other of others) {
      await api(control, 'POST', `/devices/${SERIAL}/reset`);
      await setOverlays([{ template: name, when: 'open' }]);
      await openGoods(dev, GOODS);
      await tap(dev, other);
      const logged = await lastTap();
      expect(logged.overlay).toBe(name);
      expect(logged.overlay_action).not.toBe('dismiss');
      expect(['none', 'navigate:home', 'navigate:app_update']).toContain(logged.overlay_action);
    }
  });
});

describe('a tap inside an overlay never reaches the page below', () => {
  test('limited_deal_mask: the centre of the covered bottom bar hits the mask button; no panel opens', async () => {
    await setOverlays([{ template: 'limited_deal_mask', when: 'open' }]);
    const { all } = await openGoods(dev, GOODS);
    const entry = one(all, (n) => n.attrs['resource-id'] === rid('tv_bottom_buy_price'), 'entry');
    expect(all.some((n) => n.attrs.text === '立即领取 ¥0.01 抢购')).toBe(true);
    await tap(dev, entry);
    const logged = await lastTap();
    expect(logged.overlay).toBe('limited_deal_mask');
    expect(logged.overlay_action).toBe('navigate:home');
    expect(logged.target?.resource_id).not.toBe(rid('ll_bottom_buy'));
    expect(logged.node?.text).toBe('立即领取 ¥0.01 抢购');
    const after = await settledDump(dev);
    expect(byId(after.all, 'll_sku_panel')).toHaveLength(0);
    expect(await screen()).toBe('home');
  });

  test('notification_prompt over the final panel: a tap on 提交订单 hits the sheet and creates no order', async () => {
    await setOverlays([{ template: 'notification_prompt', when: 'final_panel' }]);
    const d = await fillPanel(dev, GOODS, ['黑色', 'M']);
    const submit = one(d.all, (n) => n.attrs['resource-id'] === rid('ll_sku_confirm'), 'submit');
    expect(d.all.some((n) => n.attrs.text === '开启通知')).toBe(true);
    await tap(dev, submit);
    expect(await lastTap()).toMatchObject({ overlay: 'notification_prompt', overlay_action: 'none' });
    // The mask around the sheet is the overlay's background: 'none' too.
    await tapAt(540, 300);
    expect(await lastTap()).toMatchObject({
      overlay: 'notification_prompt',
      overlay_action: 'none',
      node: { text: '' },
    });
    expect(await orders()).toEqual([]);
    expect(await screen()).toBe('sku_panel');
  });

  test('a swipe that starts on an overlay does not scroll the panel beneath', async () => {
    await setOverlays([{ ...CUSTOM, when: 'panel', bounds: [0, 900, 1080, 2376], nodes: [] }]);
    const { all } = await openGoods(dev, GOODS);
    await tap(
      dev,
      one(all, (n) => n.attrs['resource-id'] === rid('tv_bottom_buy_price')),
    );
    await settledDump(dev);
    await sh(dev, 'input swipe 540 1900 540 1300 300');
    expect((await dump(dev)).all.some((n) => n.attrs.text === '尺码')).toBe(false);
    await api(control, 'DELETE', `/devices/${SERIAL}/overlays`);
    await sh(dev, 'input swipe 540 1900 540 1300 300');
    expect((await dump(dev)).all.some((n) => n.attrs.text === '尺码')).toBe(true);
  });

  test('float_video covers only its window: taps elsewhere reach the page', async () => {
    await setOverlays([{ template: 'float_video', when: 'open' }]);
    const { all } = await openGoods(dev, GOODS);
    await tapAt(800, 1500); // inside the window, over 进店逛逛's row
    expect(await lastTap()).toMatchObject({ overlay: 'float_video', overlay_action: 'none' });
    await tap(
      dev,
      one(all, (n) => n.attrs['resource-id'] === rid('tv_bottom_buy_price')),
    );
    expect(await lastTap()).toMatchObject({ overlay: null, overlay_action: null });
    expect(byId((await settledDump(dev)).all, 'll_sku_panel')).toHaveLength(1);
  });
});

test('dumpsys window names the mask activity while order_success is up, and GET /devices lists it', async () => {
  const focus = async () => /mCurrentFocus=Window\{\w+ u0 (\S+)\}/.exec(await sh(dev, 'dumpsys window'))?.[1];
  await setOverlays([{ template: 'order_success', when: 'open' }]);
  expect(await focus()).toBe('com.android.launcher3/.Launcher');
  await openGoods(dev, GOODS);
  expect(await focus()).toBe('com.xunmeng.pinduoduo/.activity.NewPageMaskActivity');
  const devices = (await api<{ serial: string; overlays: string[] }[]>(control, 'GET', '/devices')).body;
  expect(devices.find((d) => d.serial === SERIAL)?.overlays).toEqual(['order_success']);
  await api(control, 'DELETE', `/devices/${SERIAL}/overlays`);
  expect(await focus()).toBe('com.xunmeng.pinduoduo/.activity.NewPageActivity');
});

test('navigate: 立即升级 leaves for the update page, back returns to the goods page', async () => {
  await setOverlays([{ template: 'update_prompt', when: 'open' }]);
  const { all } = await openGoods(dev, GOODS);
  await tap(
    dev,
    one(all, (n) => n.attrs.text === '立即升级'),
  );
  expect(await lastTap()).toMatchObject({ overlay: 'update_prompt', overlay_action: 'navigate:app_update' });
  expect(byId((await settledDump(dev)).all, 'll_update_now')).toHaveLength(1);
  expect(await screen()).toBe('app_update');
  await sh(dev, 'input keyevent 4');
  const back = await settledDump(dev);
  expect(byId(back.all, 'll_bottom_buy')).toHaveLength(1);
  expect(back.all.some((n) => n.attrs.text === '立即升级')).toBe(false);
});

describe('moments', () => {
  const expectAppears = async (when: string, reach: () => Promise<{ all: XNode[] }>) => {
    await setOverlays([{ ...CUSTOM, when }]);
    expect(hasCustom((await reach()).all)).toBe(true);
  };

  test('open, and not before', async () => {
    await setOverlays([{ ...CUSTOM, when: 'open' }]);
    expect(hasCustom((await dump(dev)).all)).toBe(false);
    expect(hasCustom((await openGoods(dev, GOODS)).all)).toBe(true);
  });

  test('panel: when the spec panel opens, not on the goods page', async () => {
    await setOverlays([{ ...CUSTOM, when: 'panel' }]);
    const { all } = await openGoods(dev, GOODS);
    expect(hasCustom(all)).toBe(false);
    await tap(
      dev,
      one(all, (n) => n.attrs['resource-id'] === rid('tv_bottom_buy_price')),
    );
    const panel = await settledDump(dev);
    expect(hasCustom(panel.all)).toBe(true);
    expect(byId(panel.all, 'll_sku_panel')).toHaveLength(1);
  });

  test('quantity: once every option is selected', async () => {
    await expectAppears('quantity', () => fillPanel(dev, GOODS, ['黑色', 'M']));
  });

  test('final_panel with after_dumps 1: the second dump of the complete panel', async () => {
    await setOverlays([{ ...CUSTOM, when: 'final_panel', after_dumps: 1 }]);
    expect(hasCustom((await fillPanel(dev, GOODS, ['黑色', 'M'])).all)).toBe(false);
    expect(hasCustom((await dump(dev)).all)).toBe(true);
  });

  test('after_submit: over the screen the submit led to', async () => {
    await setOverlays([{ template: 'order_success', when: 'after_submit' }]);
    const d = await fillPanel(dev, GOODS, ['黑色', 'M']);
    await tap(
      dev,
      one(d.all, (n) => n.attrs['resource-id'] === rid('ll_sku_confirm')),
    );
    const after = await settledDump(dev);
    expect(byId(after.all, 'll_cashier_panel')).toHaveLength(1);
    expect(after.all.some((n) => n.attrs.text === '恭喜你，下单成功')).toBe(true);
    expect(await orders()).toHaveLength(1);
  });

  test('orders: over the orders list', async () => {
    await expectAppears('orders', async () => {
      await dev.startActivity({
        action: 'android.intent.action.VIEW',
        data: 'pinduoduo://com.xunmeng.pinduoduo/orders.html?type=1',
      });
      return settledDump(dev);
    });
  });

  test('times 2: back after a dismissal, and each re-open counts one', async () => {
    await setOverlays([{ ...CUSTOM, when: 'open', times: 2 }]);
    const d = await openGoods(dev, GOODS);
    await tap(dev, byId(d.all, 'x_close')[0] as XNode);
    expect(await lastTap()).toMatchObject({ overlay: 'promo-1', overlay_action: 'dismiss' });
    expect(hasCustom((await dump(dev)).all)).toBe(true);
    expect(hasCustom((await openGoods(dev, GOODS)).all)).toBe(false);
    const view = (await api<{ overlays: { shown: number }[] }>(control, 'GET', `/devices/${SERIAL}/overlays`)).body;
    expect(view.overlays[0]?.shown).toBe(2);
  });
});

test('custom overlays: a tap on a non-clickable node logs none; DELETE takes the overlay away', async () => {
  await setOverlays([{ ...CUSTOM, when: 'open' }]);
  const { all } = await openGoods(dev, GOODS);
  const title = one(all, (n) => n.attrs.text === '限时福利');
  const [x, y] = center(title);
  await tapAt(x, y);
  expect(await lastTap()).toMatchObject({ overlay: 'promo-1', overlay_action: 'none', target: null });
  expect((await api(control, 'DELETE', `/devices/${SERIAL}/overlays`)).status).toBe(200);
  expect(hasCustom((await dump(dev)).all)).toBe(false);
});

test('bad overlays are refused with the field named, and nothing is set', async () => {
  const bad = [
    [{ ...CUSTOM, when: 'checkout' }, 'overlays.0.when'],
    [{ template: 'no_such', when: 'open' }, 'overlays.0.template'],
    [{ ...CUSTOM, nodes: [{ ...CUSTOM.nodes[1], action: 'navigate:cashier' }] }, 'overlays.0.nodes.0.action'],
    [{ ...CUSTOM, when: 'open', nodes: [{ ...CUSTOM.nodes[1], bounds: [0, 0, 50, 50] }] }, 'overlays.0.nodes.0.bounds'],
  ] as const;
  for (const [overlay, field] of bad) {
    const res = await api<{ field: string }>(control, 'PUT', `/devices/${SERIAL}/overlays`, { overlays: [overlay] });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  }
  expect((await api<{ overlays: unknown[] }>(control, 'GET', `/devices/${SERIAL}/overlays`)).body.overlays).toEqual([]);
});

test('screencap draws the overlay above the page', async () => {
  const pixel = async (x: number, y: number): Promise<number[]> => {
    const img = PNG.sync.read(await Adb.util.readAll(await dev.screencap()));
    const i = (y * img.width + x) * 4;
    return [...img.data.subarray(i, i + 3)];
  };
  await openGoods(dev, GOODS);
  const plain = await pixel(100, 720);
  await setOverlays([{ template: 'limited_deal_mask', when: 'open' }]);
  const { xml } = await dump(dev);
  expect(parseDump(xml).all.some((n) => n.attrs.text === '新人专享 0.01元抢购')).toBe(true);
  expect(await pixel(100, 720)).toEqual([228, 57, 60]);
  expect(plain).not.toEqual([228, 57, 60]);
});
