import http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import { XMLParser } from 'fast-xml-parser';
import type { PhoneSim } from './index';
import { agentTagName } from './app/render-xml';
import { dump, openGoods, parseDump, putPhone, sh, useTestSim, type DeviceClient } from './testkit';

let sim: PhoneSim;
let control: string;
let dev: DeviceClient;

useTestSim((rig) => ({ sim, control, dev } = rig), { reset: ['sim-phone-1'] });

/** One smart-socket request to the adb server, its whole answer. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(sim.adbPort, '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('connect', () => s.write(request.length.toString(16).padStart(4, '0') + request));
    s.on('data', (d) => chunks.push(d));
    s.on('close', () => resolve(Buffer.concat(chunks).toString()));
    s.on('error', reject);
  });
}

const SERVER_APK = '/data/local/tmp/appium-uiautomator2-server-v7.0.0.apk';
const TEST_APK = '/data/local/tmp/appium-uiautomator2-server-debug-androidTest.apk';
const RUNNER = 'io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner';
const INSTRUMENT = `am instrument -w -e disableAnalytics true ${RUNNER}`;
const CRASHED = 'INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n';

async function push(path: string): Promise<void> {
  const transfer = await dev.push(Readable.from([Buffer.from('PK\u0003\u0004 not a real apk')]), path);
  await new Promise<void>((resolve, reject) => {
    transfer.on('end', resolve);
    transfer.on('error', reject);
  });
}

async function install(): Promise<void> {
  await push(SERVER_APK);
  await push(TEST_APK);
  expect(await sh(dev, `pm install -r -g ${SERVER_APK}`)).toBe('Success\n');
  expect(await sh(dev, `pm install -r ${TEST_APK}`)).toBe('Success\n');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** One HTTP exchange on its own connection (no pooled socket outlives a dead agent). */
function call(
  port: number,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: { value: unknown } }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('hang')));
    req.end(data);
  });
}

const sourceParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  preserveOrder: true,
  parseTagValue: false,
  trimValues: false,
  ignoreDeclaration: true,
});
type Entry = Record<string, unknown>;
interface SourceElement {
  tag: string;
  attrs: Record<string, string>;
  depth: number;
}

/** The page source's elements in document order (text between them skipped). */
function sourceElements(xml: string): { hierarchy: Record<string, string>; all: SourceElement[] } {
  const all: SourceElement[] = [];
  const walk = (entries: Entry[], depth: number): void => {
    for (const e of entries) {
      const tag = Object.keys(e).find((k) => k !== ':@') ?? '#text';
      if (tag === '#text') continue;
      all.push({ tag, attrs: (e[':@'] ?? {}) as Record<string, string>, depth });
      walk(e[tag] as Entry[], depth + 1);
    }
  };
  const top = (sourceParser.parse(xml) as Entry[]).filter((e) => !('#text' in e));
  const h = top[0] ?? {};
  if (top.length !== 1 || !('hierarchy' in h)) throw new Error(`not one hierarchy: ${xml.slice(0, 200)}`);
  walk(h['hierarchy'] as Entry[], 0);
  return { hierarchy: (h[':@'] ?? {}) as Record<string, string>, all };
}

const READ = ['index', 'text', 'resource-id', 'class', 'package', 'content-desc', 'clickable', 'enabled'];
const READ_MORE = ['focusable', 'scrollable', 'selected', 'bounds', 'checked', 'long-clickable', 'password'];

/** The page source holds the dump's nodes, in its order and nesting, named by class. */
function expectSameScreen(source: string, dumpXml: string): void {
  const { hierarchy, all } = sourceElements(source);
  expect(source.startsWith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>")).toBe(true);
  expect(hierarchy).toEqual({ index: '0', class: 'hierarchy', rotation: '0', width: '1080', height: '2376' });
  const dumped = parseDump(dumpXml).all;
  expect(all.length).toBeGreaterThan(0);
  expect(all.map((e) => e.tag)).toEqual(dumped.map((n) => agentTagName(n.attrs['class'] ?? '')));
  expect(all.map((e) => e.depth)).toEqual(dumped.map((n) => n.depth));
  const read = (a: Record<string, string>) => Object.fromEntries([...READ, ...READ_MORE].map((k) => [k, a[k] ?? '']));
  expect(all.map((e) => read(e.attrs))).toEqual(dumped.map((n) => read(n.attrs)));
  expect(all.every((e) => e.attrs['displayed'] === 'true')).toBe(true);
}

/** Starts the agent with `-w` and waits until it answers through a fresh forward. */
async function startAgent(): Promise<{ port: number; instrument: Promise<string> }> {
  const port = await freePort();
  await dev.forward(`tcp:${port}`, 'tcp:6790');
  const instrument = sh(dev, INSTRUMENT);
  for (let i = 0; ; i++) {
    try {
      await call(port, 'GET', '/status');
      return { port, instrument };
    } catch (e) {
      if (i > 50) throw e;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

describe('installing the UiAutomator2 server', () => {
  test('pm install of both pushed APKs lists the packages and the instrumentation', async () => {
    expect(await sh(dev, 'pm list instrumentation')).toBe('');
    expect(await sh(dev, `pm install ${SERVER_APK}`)).toMatch(/^Error: Unable to open file/);
    await install();
    const packages = await sh(dev, 'pm list packages');
    expect(packages).toContain('package:io.appium.uiautomator2.server\n');
    expect(packages).toContain('package:io.appium.uiautomator2.server.test\n');
    expect(await sh(dev, 'pm list instrumentation')).toBe(
      `instrumentation:${RUNNER} (target=io.appium.uiautomator2.server)\n`,
    );
    await push('/data/local/tmp/other.apk');
    expect(await sh(dev, 'pm install /data/local/tmp/other.apk')).toMatch(/^Failure \[INSTALL_PARSE_FAILED_NOT_APK/);
  });

  test('am instrument without the packages fails as a phone does', async () => {
    expect(await sh(dev, INSTRUMENT)).toBe(
      'INSTRUMENTATION_STATUS: id=ActivityManagerService\n' +
        `INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ComponentInfo{${RUNNER}}\n` +
        'INSTRUMENTATION_STATUS_CODE: -1\n' +
        `android.util.AndroidException: INSTRUMENTATION_FAILED: ${RUNNER}\n`,
    );
  });
});

describe('the agent over adb forward', () => {
  test('forward is listed, and nothing answers on 6790 before the agent runs', async () => {
    const port = await freePort();
    await dev.forward(`tcp:${port}`, 'tcp:6790');
    const line = `sim-phone-1 tcp:${port} tcp:6790\n`;
    expect(await dev.listForwards()).toContainEqual({
      serial: 'sim-phone-1',
      local: `tcp:${port}`,
      remote: 'tcp:6790',
    });
    expect(await raw('host:list-forward')).toContain(line);
    await expect(call(port, 'GET', '/status')).rejects.toThrow();
    expect(await raw(`host-serial:sim-phone-1:killforward:tcp:${port}`)).toBe('OKAYOKAY');
    expect(await raw('host:list-forward')).not.toContain(line);
    await expect(call(port, 'GET', '/status')).rejects.toThrow(/ECONNREFUSED/);
  });

  test('status, session, settings, source and delete', async () => {
    await install();
    // dumped before the agent runs: while it does, it holds the phone's one UiAutomation
    const before = (await dump(dev)).xml;
    const { port, instrument } = await startAgent();
    let ended = false;
    void instrument.then(() => (ended = true));
    expect(await call(port, 'GET', '/status')).toEqual({
      status: 200,
      body: { value: { ready: true, message: 'UiAutomator2 Server is ready to accept commands' } },
    });
    const created = await call(port, 'POST', '/session', { capabilities: { platformName: 'Android' } });
    expect(created.status).toBe(200);
    const { sessionId: id, capabilities } = created.body.value as { sessionId: string; capabilities: unknown };
    expect(capabilities).toEqual({ platformName: 'Android' });
    expect(await call(port, 'POST', `/session/${id}/appium/settings`, { settings: { waitForIdleTimeout: 0 } })).toEqual(
      {
        status: 200,
        body: { value: null },
      },
    );
    expect((await call(port, 'GET', `/session/${id}/appium/settings`)).body.value).toMatchObject({
      waitForIdleTimeout: 0,
    });

    const source = await call(port, 'GET', `/session/${id}/source`);
    expect(source.status).toBe(200);
    expect(source.body.value).toMatch(/^<\?xml [^>]*\?>\n<hierarchy [^>]*>\n {2}<android\.widget\.FrameLayout /);
    expectSameScreen(source.body.value as string, before);
    // Android lets one UiAutomation connect at a time: uiautomator dump is refused while it runs
    expect(await sh(dev, 'uiautomator dump /dev/tty')).toMatch(
      /^java\.lang\.IllegalStateException: .* already registered!\n$/,
    );

    // a screen that never goes idle: the agent answers with the tree at once
    await putPhone(control, 'sim-phone-1', 'faults', { never_idle: true });
    const busy = await call(port, 'GET', `/session/${id}/source`);
    expect(busy.body.value).toBe(source.body.value);
    // with a wait for idle it waits first and then answers the tree all the same: a /status
    // asked after it is answered before it
    await call(port, 'POST', `/session/${id}/appium/settings`, { settings: { waitForIdleTimeout: 300 } });
    const waits: string[] = [];
    const waited = call(port, 'GET', `/session/${id}/source`).then((r) => {
      waits.push('waited');
      return r;
    });
    await call(port, 'GET', '/status').then(() => waits.push('status'));
    expect((await waited).body.value).toBe(source.body.value);
    expect(waits).toEqual(['status', 'waited']);

    expect(await call(port, 'DELETE', `/session/${id}`)).toEqual({ status: 200, body: { value: null } });
    const gone = await call(port, 'GET', `/session/${id}/source`);
    expect(gone.status).toBe(404);
    expect(gone.body.value).toMatchObject({ error: 'invalid session id' });
    const unknown = await call(port, 'GET', '/frob');
    expect(unknown.status).toBe(404);
    expect(unknown.body.value).toMatchObject({ error: 'unknown command' });

    expect(ended).toBe(false);
    await sh(dev, 'am force-stop io.appium.uiautomator2.server');
    expect(await instrument).toBe(CRASHED);
  });

  test('the source of a goods page and of the lock screen holds what a dump of it holds', async () => {
    await install();
    // each screen dumped while the agent is not running (it would refuse the dump)
    const goods = await openGoods(dev, '937122477375');
    const first = await startAgent();
    const session = async (port: number) =>
      ((await call(port, 'POST', '/session', { capabilities: {} })).body.value as { sessionId: string }).sessionId;
    let id = await session(first.port);
    const source = (await call(first.port, 'GET', `/session/${id}/source`)).body.value as string;
    expectSameScreen(source, goods.xml);
    expect(source).toContain('<android.widget.TextView ');
    expect(source).not.toContain('<node ');
    await sh(dev, 'am force-stop io.appium.uiautomator2.server');
    await first.instrument;
    await putPhone(control, 'sim-phone-1', 'health', { screen: 'locked' });
    const lockedDump = (await dump(dev)).xml;
    const { port } = await startAgent();
    id = await session(port);
    const locked = (await call(port, 'GET', `/session/${id}/source`)).body.value as string;
    expectSameScreen(locked, lockedDump);
    expect(locked).toContain('package="com.android.systemui"');
    // a dark display: uiautomator dump has no root, the server still answers its tree
    await putPhone(control, 'sim-phone-1', 'health', { screen: 'off' });
    const dark = (await call(port, 'GET', `/session/${id}/source`)).body.value as string;
    expect(sourceElements(dark).all.length).toBeGreaterThan(0);
  });

  test('a class name that is no XML name is rewritten for the element, kept in `class`', () => {
    expect(agentTagName('android.widget.TextView')).toBe('android.widget.TextView');
    expect(agentTagName('com.pdd.Foo$Bar')).toBe('com.pdd.Foo.Bar');
    expect(agentTagName('$a..b$')).toBe('a.b');
    expect(agentTagName('1a b:c')).toBe('a_b_c');
    expect(agentTagName('')).toBe('android.view.View');
  });

  test('no_agent kills the running agent and makes am instrument fail', async () => {
    await install();
    const { port, instrument } = await startAgent();
    await putPhone(control, 'sim-phone-1', 'faults', { no_agent: true });
    expect(await instrument).toBe(CRASHED);
    await expect(call(port, 'GET', '/status')).rejects.toThrow();
    expect(await sh(dev, INSTRUMENT)).toBe(CRASHED);
    await expect(call(port, 'GET', '/status')).rejects.toThrow();
  });
});
