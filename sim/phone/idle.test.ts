import type { Client } from '@devicefarmer/adbkit';
import { defaultCatalog } from './catalog/default-catalog';
import { catalogSchema } from './catalog/schema';
import { neverIdle } from './idle';
import { sleep } from './latency';
import { Phone } from './phone';
import {
  api,
  byId,
  center,
  dump,
  one,
  openGoods,
  parseDump,
  putPhone,
  sh,
  tap,
  useTestSim,
  type DeviceClient,
} from './testkit';

let client: Client;
let control: string;
let dev: DeviceClient;
const SERIAL = 'sim-phone-1';
const GOODS = '937122477375';
const REFUSED = 'ERROR: could not get idle state.\n';

useTestSim((rig) => ({ client, control, dev } = rig), { reset: [SERIAL, 'sim-phone-2'] });

const faults = (f: object) => putPhone(control, SERIAL, 'faults', f);

describe('fault never_idle', () => {
  test('on a listed screen both dump forms print the timeout line and write no file', async () => {
    await faults({ never_idle: ['goods_detail'] });
    // the launcher is not listed: it dumps as ever
    expect(byId((await dump(dev)).all, 'tv_search_hint')).toHaveLength(0);
    await dev.startActivity({
      action: 'android.intent.action.VIEW',
      data: `pinduoduo://com.xunmeng.pinduoduo/goods.html?goods_id=${GOODS}`,
    });
    // zero's counted loading dump is the loading screen, which is not listed
    expect(byId((await dump(dev)).all, 'pdd_loading_view')).toHaveLength(1);

    expect(await sh(dev, 'uiautomator dump /dev/tty')).toBe(REFUSED);
    expect(await sh(dev, 'uiautomator dump --compressed /dev/tty')).toBe(REFUSED);
    await sh(dev, 'rm -f /sdcard/window_dump.xml /sdcard/x.xml');
    expect(await sh(dev, 'uiautomator dump')).toBe(REFUSED);
    expect(await sh(dev, 'uiautomator dump --compressed /sdcard/x.xml')).toBe(REFUSED);
    expect(await sh(dev, 'cat /sdcard/window_dump.xml /sdcard/x.xml')).toBe(
      'cat: /sdcard/window_dump.xml: No such file or directory\ncat: /sdcard/x.xml: No such file or directory\n',
    );
    // exit 0, as DumpCommand returns; the line is on stderr, so it can be dropped like any stderr
    expect(await sh(dev, 'uiautomator dump /dev/tty 2>/dev/null && echo ok')).toBe('ok\n');
    expect((await api<{ screen: string }>(control, 'GET', `/devices/${SERIAL}`)).body.screen).toBe('goods_detail');
  });

  test('the refusal comes after the idle timeout, later than an ordinary dump', async () => {
    await faults({ never_idle: true });
    const finished: string[] = [];
    const refused = sh(dev, 'uiautomator dump /dev/tty').then((o) => finished.push(o === REFUSED ? 'refused' : o));
    const ordinary = sh(client.getDevice('sim-phone-2'), 'uiautomator dump /dev/tty').then(() =>
      finished.push('dumped'),
    );
    await Promise.all([refused, ordinary]);
    expect(finished).toEqual(['dumped', 'refused']);
  });

  test('the spec panel can be listed alone; clearing the fault reads the page again', async () => {
    await faults({ never_idle: ['sku_panel'] });
    const page = await openGoods(dev, GOODS);
    await tap(
      dev,
      one(page.all, (n) => n.attrs.text?.startsWith('快要抢光 ¥') === true, 'entry'),
    );
    expect(await sh(dev, 'uiautomator dump /dev/tty')).toBe(REFUSED);
    await api(control, 'DELETE', `/devices/${SERIAL}/faults`);
    expect(byId((await dump(dev)).all, 'll_sku_confirm').length).toBeGreaterThan(0);
  });

  test('the control API names the field of a bad value', async () => {
    const res = await api<{ field: string }>(control, 'PUT', `/devices/${SERIAL}/faults`, { never_idle: 'yes' });
    expect([res.status, res.body.field]).toEqual([400, 'never_idle']);
  });
});

describe('goods with a countdown', () => {
  const catalog = catalogSchema.parse({
    ...defaultCatalog(),
    goods: defaultCatalog().goods.map((g) => (g.goods_id === GOODS ? { ...g, countdown: true } : g)),
  });
  const phoneOn = (latency: 'zero' | 'realistic') => new Phone('idle-1', '8.17.0', () => catalog, latency, 99);
  // a timer may fire a millisecond before the clock it was set by says it is due
  const settled = (phone: Phone) => sleep(phone.app.msUntilSettled() + 5);
  const goodsUrl = `https://mobile.yangkeduo.com/goods.html?goods_id=${GOODS}`;

  test('realistic: the goods page and its panel never go idle; other goods and other screens do', async () => {
    const phone = phoneOn('realistic');
    expect(neverIdle(phone)).toBe(false);
    phone.app.startUrl(goodsUrl);
    await settled(phone);
    expect([phone.app.screenName(), neverIdle(phone)]).toEqual(['goods_detail', true]);
    const entry = one(
      parseDump(phone.app.currentXml()).all,
      (n) => n.attrs.text?.startsWith('快要抢光 ¥') === true,
      'entry',
    );
    phone.tap(...center(entry));
    await settled(phone);
    expect([phone.app.screenName(), neverIdle(phone)]).toEqual(['sku_panel', true]);
    phone.app.back();
    phone.app.startUrl('https://mobile.yangkeduo.com/goods.html?goods_id=737116531267');
    await settled(phone);
    expect([phone.app.screenName(), neverIdle(phone)]).toEqual(['goods_detail', false]);
    // the fault decides over the catalog, both ways
    phone.setFaults({ never_idle: false });
    phone.app.back();
    await settled(phone);
    expect(neverIdle(phone)).toBe(false);
    phone.setFaults({ never_idle: ['goods_detail'] });
    expect(neverIdle(phone)).toBe(true);
  });

  test('zero: the same page dumps (the countdown holds up only a realistic phone)', () => {
    const phone = phoneOn('zero');
    phone.app.startUrl(goodsUrl);
    phone.app.dump(); // the counted loading dump
    expect([phone.app.screenName(), neverIdle(phone)]).toEqual(['goods_detail', false]);
  });

  test('the catalog keeps the flag', () => {
    expect(catalog.goods.find((g) => g.goods_id === GOODS)?.countdown).toBe(true);
  });
});
