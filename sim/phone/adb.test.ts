import net from 'node:net';
import Adb from '@devicefarmer/adbkit';
import type { Client } from '@devicefarmer/adbkit';
import { PNG } from 'pngjs';
import type { PhoneSim } from './index';
import { api, parseDump, sh, shBuf, useTestSim } from './testkit';

let sim: PhoneSim;
let client: Client;
let control: string;

useTestSim((rig) => ({ sim, client, control } = rig), { reset: [] });

/** A raw smart-socket exchange, to check bytes adbkit would hide. */
function raw(port: number, ...requests: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('connect', () => {
      for (const r of requests) s.write(r.length.toString(16).padStart(4, '0') + r);
    });
    s.on('data', (d) => chunks.push(d));
    s.on('close', () => resolve(Buffer.concat(chunks)));
    s.on('error', reject);
    s.setTimeout(3000, () => {
      s.destroy();
      reject(new Error('hang'));
    });
  });
}

describe('host services', () => {
  test('version is 41 and the socket is closed after one-shot replies', async () => {
    expect(await client.version()).toBe(41);
    expect((await raw(sim.adbPort, 'host:version')).toString()).toBe('OKAY00040029');
  });

  test('devices and devices-l list each phone', async () => {
    const list = await client.listDevices();
    expect(list).toEqual([
      { id: 'sim-phone-1', type: 'device' },
      { id: 'sim-phone-2', type: 'device' },
    ]);
    const long = await client.listDevicesWithPaths();
    expect(long.map((d: { id: string; type: string }) => [d.id, d.type])).toEqual([
      ['sim-phone-1', 'device'],
      ['sim-phone-2', 'device'],
    ]);
    expect(long[0]?.path).toMatch(/^usb:/);
    expect(long[0]?.transportId).toMatch(/^transport_id:\d+$/);
    expect((await raw(sim.adbPort, 'host:devices')).toString()).toBe(
      'OKAY0026sim-phone-1\tdevice\nsim-phone-2\tdevice\n',
    );
  });

  test('track-devices reports a phone added through the control API', async () => {
    const tracker = await client.trackDevices();
    try {
      const added = new Promise<string>((resolve) =>
        tracker.on('add', (d: { id: string }) => d.id === 'sim-phone-9' && resolve(d.id)),
      );
      const res = await api(control, 'POST', '/devices', { serial: 'sim-phone-9' });
      expect(res.status).toBe(201);
      await expect(added).resolves.toBe('sim-phone-9');
      const removed = new Promise<string>((resolve) => tracker.on('remove', (d: { id: string }) => resolve(d.id)));
      await api(control, 'DELETE', '/devices/sim-phone-9');
      await expect(removed).resolves.toBe('sim-phone-9');
    } finally {
      tracker.end();
    }
  });

  test("unknown host service and unknown serial answer FAIL with adb's messages, never hang", async () => {
    expect((await raw(sim.adbPort, 'host:frobnicate')).toString()).toBe('FAIL0014unknown host service');
    expect((await raw(sim.adbPort, 'host:transport:nope')).toString()).toBe("FAIL0017device 'nope' not found");
    await expect(client.getDevice('nope').shell('echo hi')).rejects.toThrow("device 'nope' not found");
    await expect(client.getDevice('nope').getProperties()).rejects.toThrow("device 'nope' not found");
    expect((await raw(sim.adbPort, 'host:transport-any')).toString()).toBe('FAIL001dmore than one device/emulator');
    // A local service the phone does not have: adb reports the stream as closed.
    expect((await raw(sim.adbPort, 'host:transport:sim-phone-1', 'frob:')).toString()).toBe('OKAYFAIL0006closed');
  });
});

describe('shell', () => {
  const d = () => client.getDevice('sim-phone-1');

  test('quoting, &&, ;, || and 2>/dev/null behave like sh', async () => {
    expect(await sh(d(), `echo 'a  b' "c \\"d\\"" e\\ f`)).toBe('a  b c "d" e f\n');
    expect(await sh(d(), ['echo', "it's", 'two words'])).toBe("it's two words\n");
    expect(await sh(d(), 'echo one && echo two; echo three')).toBe('one\ntwo\nthree\n');
    expect(await sh(d(), 'cat /sdcard/missing && echo no || echo fallback')).toBe(
      'cat: /sdcard/missing: No such file or directory\nfallback\n',
    );
    expect(await sh(d(), 'cat /sdcard/missing 2>/dev/null; echo after')).toBe('after\n');
    expect(await sh(d(), 'frobnicate --x')).toBe('/system/bin/sh: frobnicate: inaccessible or not found\n');
    expect(
      await sh(d(), 'echo hello > /sdcard/h.txt && cat /sdcard/h.txt && rm /sdcard/h.txt && cat /sdcard/h.txt 2>&1'),
    ).toBe('hello\ncat: /sdcard/h.txt: No such file or directory\n');
    expect(await sh(d(), 'dumpsys package com.xunmeng.pinduoduo | grep versionName')).toBe('    versionName=8.17.0\n');
  });

  test('getprop, wm size, dumpsys package, pm', async () => {
    const props = await d().getProperties();
    expect(props['ro.serialno']).toBe('sim-phone-1');
    expect(props['ro.build.version.sdk']).toBe('30');
    expect(await sh(d(), 'getprop ro.product.model')).toBe('SIM 1080x2376\n');
    expect(await sh(d(), 'wm size')).toBe('Physical size: 1080x2376\n');
    const pkg = await sh(d(), 'dumpsys package com.xunmeng.pinduoduo');
    expect(/^\s*versionName=(\S+)/m.exec(pkg)?.[1]).toBe('8.17.0');
    expect(pkg).toContain('Package [com.xunmeng.pinduoduo]');
    expect(await sh(d(), 'dumpsys package com.example.none')).not.toMatch(/versionName=/);
    expect(await d().isInstalled('com.xunmeng.pinduoduo')).toBe(true);
    expect(await d().isInstalled('com.example.none')).toBe(false);
  });

  test("startActivity succeeds for app links and throws adb's error for an unresolvable intent", async () => {
    await expect(
      d().startActivity({
        action: 'android.intent.action.VIEW',
        data: 'pinduoduo://com.xunmeng.pinduoduo/goods.html?goods_id=937122477375',
      }),
    ).resolves.toBe(true);
    await expect(
      d().startActivity({ action: 'android.intent.action.VIEW', data: 'https://example.com/x' }),
    ).rejects.toThrow(/Activity not started, unable to resolve Intent/);
  });

  test('screencap decodes to a 1080x2376 PNG that is not blank', async () => {
    await sh(d(), 'uiautomator dump');
    const png = await Adb.util.readAll(await d().screencap());
    const img = PNG.sync.read(png);
    expect([img.width, img.height]).toEqual([1080, 2376]);
    const colours = new Set<number>();
    for (let i = 0; i < img.data.length; i += 4 * 101) colours.add(img.data.readUInt32BE(i));
    expect(colours.size).toBeGreaterThan(2);
    // Plain `screencap -p` over shell: PNG bytes right away.
    expect((await shBuf(d(), 'screencap -p')).subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
  });

  test('dump to a file, then pull it over sync', async () => {
    expect(await sh(d(), 'uiautomator dump /sdcard/x.xml')).toBe('UI hierchary dumped to: /sdcard/x.xml\n');
    const stat = await d().stat('/sdcard/x.xml');
    expect(stat.size).toBeGreaterThan(500);
    const xml = (await Adb.util.readAll(await d().pull('/sdcard/x.xml'))).toString('utf8');
    expect(Buffer.byteLength(xml)).toBe(Number(stat.size));
    expect(parseDump(xml).root.attrs.class).toBe('android.widget.FrameLayout');
    const missing = await d().pull('/sdcard/none.xml');
    // adbkit ends the transfer first, then emits the FAIL as an error.
    const failure = await new Promise<Error>((resolve) => {
      missing.on('error', resolve);
      missing.resume();
    });
    expect(failure.message).toContain('open failed: No such file or directory');
  });

  test('50 concurrent shell calls across two phones stay consistent', async () => {
    await api(control, 'POST', '/devices/sim-phone-1/reset');
    await api(control, 'POST', '/devices/sim-phone-2/reset');
    const calls = Array.from({ length: 50 }, (_, i) => {
      const serial = i % 2 ? 'sim-phone-2' : 'sim-phone-1';
      return sh(client.getDevice(serial), `echo ${i} && getprop ro.serialno && input tap ${i} ${i}`).then((out) => ({
        i,
        serial,
        out,
      }));
    });
    for (const { i, serial, out } of await Promise.all(calls)) expect(out).toBe(`${i}\n${serial}\n`);
    for (const serial of ['sim-phone-1', 'sim-phone-2']) {
      const taps = (await api<{ x: number; screen: string }[]>(control, 'GET', `/devices/${serial}/taps`)).body;
      expect(taps).toHaveLength(25);
      expect(taps.every((t) => (t.x % 2 === 1) === (serial === 'sim-phone-2'))).toBe(true);
    }
  });
});
