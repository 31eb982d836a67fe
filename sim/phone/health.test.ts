import net from 'node:net';
import type { Client } from '@devicefarmer/adbkit';
import type { PhoneSim } from './index';
import {
  api,
  byId,
  dump,
  one,
  openGoods,
  putPhone,
  rid,
  settledDump,
  sh,
  tap,
  useTestSim,
  type DeviceClient,
} from './testkit';

let sim: PhoneSim;
let client: Client;
let control: string;
let dev: DeviceClient;
const SERIAL = 'sim-phone-1';

useTestSim((rig) => ({ sim, client, control, dev } = rig));

const health = (h: object) => putPhone(control, SERIAL, 'health', h);
const line = (out: string, re: RegExp): string | undefined => re.exec(out)?.[1];

describe('health', () => {
  test('defaults, partial updates, and bad input refused with the field named', async () => {
    expect((await api(control, 'GET', `/devices/${SERIAL}/health`)).body).toEqual({
      battery_level: 80,
      charging: true,
      screen: 'on',
      free_storage_mb: 20000,
    });
    await health({ battery_level: 12 });
    expect((await api(control, 'GET', `/devices/${SERIAL}/health`)).body).toMatchObject({
      battery_level: 12,
      charging: true,
    });
    for (const [body, field] of [
      [{ battery_level: 101 }, 'battery_level'],
      [{ screen: 'dim' }, 'screen'],
      [{ free_storage_mb: -1 }, 'free_storage_mb'],
      [{ temperature: 30 }, '(body)'],
    ] as const) {
      const res = await api<{ field: string }>(control, 'PUT', `/devices/${SERIAL}/health`, body);
      expect(res.status).toBe(400);
      expect(res.body.field).toBe(field);
    }
    expect((await api<{ battery_level: number }>(control, 'GET', `/devices/${SERIAL}/health`)).body.battery_level).toBe(
      12,
    );
  });

  test('dumpsys battery: level, status and USB power as Android prints them', async () => {
    const def = await sh(dev, 'dumpsys battery');
    expect(def).toMatch(/^Current Battery Service state:\n/);
    expect(line(def, /^ {2}level: (\d+)$/m)).toBe('80');
    expect(line(def, /^ {2}status: (\d+)$/m)).toBe('2');
    await health({ battery_level: 9, charging: false });
    const low = await sh(dev, 'dumpsys battery');
    expect(line(low, /^ {2}level: (\d+)$/m)).toBe('9');
    expect(line(low, /^ {2}status: (\d+)$/m)).toBe('3');
    expect(line(low, /^ {2}USB powered: (\w+)$/m)).toBe('false');
    await health({ battery_level: 100, charging: true });
    expect(line(await sh(dev, 'dumpsys battery'), /^ {2}status: (\d+)$/m)).toBe('5');
  });

  test('dumpsys power and the keyguard in dumpsys window follow the screen', async () => {
    const state = async () => {
      const power = await sh(dev, 'dumpsys power');
      const win = await sh(dev, 'dumpsys window');
      return {
        wake: line(power, /^\s*mWakefulness=(\w+)$/m),
        display: line(power, /^\s*mHoldingDisplaySuspendBlocker=(\w+)$/m),
        dreaming: line(win, /mDreamingLockscreen=(\w+)/),
        showing: line(win, /^\s*showing=(\w+)$/m),
      };
    };
    expect(await state()).toEqual({ wake: 'Awake', display: 'true', dreaming: 'false', showing: 'false' });
    await health({ screen: 'locked' });
    expect(await state()).toEqual({ wake: 'Awake', display: 'true', dreaming: 'true', showing: 'true' });
    expect(await sh(dev, 'dumpsys window')).toMatch(/mCurrentFocus=Window\{\w+ u0 NotificationShade\}/);
    await health({ screen: 'off' });
    expect(await state()).toEqual({ wake: 'Asleep', display: 'false', dreaming: 'true', showing: 'true' });
    expect(await sh(dev, 'dumpsys window policy')).toMatch(/^\s*showing=true$/m);
  });

  test('df /data reports the free space in 1K blocks (and -h in G)', async () => {
    await health({ free_storage_mb: 512 });
    const out = await sh(dev, 'df /data');
    const [head, row] = out.trimEnd().split('\n');
    expect(head).toMatch(/^Filesystem\s+1K-blocks\s+Used\s+Available\s+Use%\s+Mounted on$/);
    const cols = (row ?? '').trim().split(/\s+/);
    expect(cols[3]).toBe(String(512 * 1024));
    expect(cols[5]).toBe('/data');
    expect(Number(cols[1])).toBe(Number(cols[2]) + Number(cols[3]));
    await health({ free_storage_mb: 20000 });
    expect(await sh(dev, 'df -h /data')).toMatch(/^\/dev\/block\/\S+\s+110G\s+90G\s+20G\s+83% \/data$/m);
    expect(await sh(dev, 'df /nope')).toBe('df: /nope: No such file or directory\n');
  });

  test('dumpsys package reports versionName', async () => {
    expect(await sh(dev, 'dumpsys package com.xunmeng.pinduoduo')).toMatch(/^\s*versionName=8\.17\.0$/m);
  });

  test('locked: the dump is the lock screen and a tap never reaches the app', async () => {
    const { all } = await openGoods(dev, '937122477375');
    const entry = one(all, (n) => n.attrs['resource-id'] === rid('tv_bottom_buy_price'));
    await health({ screen: 'locked' });
    const locked = await dump(dev);
    expect(locked.all.every((n) => n.attrs.package === 'com.android.systemui')).toBe(true);
    expect(locked.all.some((n) => n.attrs.text === '上滑解锁')).toBe(true);
    await tap(dev, entry);
    await sh(dev, 'input keyevent 4');
    await sh(dev, 'input swipe 540 2000 540 600 300');
    expect((await dump(dev)).all[0]?.attrs.package).toBe('com.android.systemui');
    const taps = (await api<{ screen: string; node: unknown }[]>(control, 'GET', `/devices/${SERIAL}/taps`)).body;
    expect(taps[taps.length - 1]).toMatchObject({ screen: 'keyguard', node: null });
    await health({ screen: 'on' });
    const after = await settledDump(dev);
    expect(byId(after.all, 'll_bottom_buy')).toHaveLength(1);
    expect(byId(after.all, 'll_sku_panel')).toHaveLength(0);
  });

  test('off: uiautomator cannot dump; KEYCODE_WAKEUP lights the lock screen, not the app', async () => {
    await health({ screen: 'off' });
    expect(await sh(dev, 'uiautomator dump /dev/tty')).toBe(
      'ERROR: null root node returned by UiTestAutomationBridge.\n',
    );
    await sh(dev, 'input keyevent KEYCODE_WAKEUP');
    expect((await api<{ screen: string }>(control, 'GET', `/devices/${SERIAL}/health`)).body.screen).toBe('locked');
    expect((await dump(dev)).all[0]?.attrs.package).toBe('com.android.systemui');
  });
});

/** `host:track-devices[-l]` read raw: every list the server sends, in order. */
function track(req: string): { lists: string[]; next(n: number): Promise<string[]>; close(): void } {
  const sock = net.connect(sim.adbPort, '127.0.0.1');
  const lists: string[] = [];
  let buf = Buffer.alloc(0);
  let waiter: (() => void) | null = null;
  sock.write(`${req.length.toString(16).padStart(4, '0')}${req}`);
  sock.on('data', (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    if (buf.subarray(0, 4).toString() === 'OKAY') buf = buf.subarray(4);
    for (;;) {
      if (buf.length < 4) break;
      const len = parseInt(buf.subarray(0, 4).toString(), 16);
      if (buf.length < 4 + len) break;
      lists.push(buf.subarray(4, 4 + len).toString());
      buf = buf.subarray(4 + len);
    }
    waiter?.();
  });
  return {
    lists,
    next: (n) =>
      new Promise((resolve) => {
        const check = (): void => {
          if (lists.length >= n) resolve(lists.slice(0, n));
          else waiter = check;
        };
        check();
      }),
    close: () => sock.destroy(),
  };
}

describe('plugging', () => {
  test('track-devices: a plugged phone shows offline, then device; a pulled one goes', async () => {
    const t = track('host:track-devices');
    try {
      expect(await t.next(1)).toEqual(['sim-phone-1\tdevice\nsim-phone-2\tdevice\n']);
      expect((await api(control, 'POST', '/devices', { serial: 'usb-7' })).status).toBe(201);
      const lists = await t.next(3);
      expect(lists.slice(1)).toEqual([
        'sim-phone-1\tdevice\nsim-phone-2\tdevice\nusb-7\toffline\n',
        'sim-phone-1\tdevice\nsim-phone-2\tdevice\nusb-7\tdevice\n',
      ]);
      expect(await sh(client.getDevice('usb-7'), 'echo up')).toBe('up\n');
      await api(control, 'DELETE', '/devices/usb-7');
      expect((await t.next(4))[3]).toBe('sim-phone-1\tdevice\nsim-phone-2\tdevice\n');
    } finally {
      t.close();
    }
  });

  test('track-devices-l carries the long form', async () => {
    const t = track('host:track-devices-l');
    try {
      const [first] = await t.next(1);
      expect(first).toMatch(
        /^sim-phone-1 {12}device usb:1-\d+ product:sim model:SIM_1080x2376 device:sim transport_id:\d+$/m,
      );
      await api(control, 'POST', '/devices', { serial: 'usb-8' });
      const lists = await t.next(3);
      expect(lists[1]).toMatch(/^usb-8 {18}offline usb:1-\d+ /m);
      expect(lists[2]).toMatch(/^usb-8 {18}device usb:1-\d+ /m);
    } finally {
      t.close();
      await api(control, 'DELETE', '/devices/usb-8');
    }
  });

  test('a pulled phone answers "not found"; plugged in again it is the same phone', async () => {
    await api(control, 'POST', '/devices', { serial: 'usb-9' });
    const usb = client.getDevice('usb-9');
    await sh(usb, 'echo kept > /sdcard/mark.txt');
    expect((await api(control, 'DELETE', '/devices/usb-9')).status).toBe(200);
    await expect(sh(usb, 'echo 1')).rejects.toThrow("device 'usb-9' not found");
    expect((await client.listDevices()).map((d: { id: string }) => d.id)).not.toContain('usb-9');
    expect((await api(control, 'POST', '/devices', { serial: 'usb-9' })).status).toBe(201);
    const t = track('host:track-devices');
    try {
      // wait until adbd is up again
      await new Promise<void>((resolve) => {
        const check = () => (t.lists.some((l) => l.includes('usb-9\tdevice')) ? resolve() : setTimeout(check, 5));
        check();
      });
    } finally {
      t.close();
    }
    expect(await sh(usb, 'cat /sdcard/mark.txt')).toBe('kept\n');
    await api(control, 'DELETE', '/devices/usb-9');
  });
});
