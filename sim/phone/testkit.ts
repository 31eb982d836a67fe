/**
 * Helpers for the sim's own tests: everything goes through adbkit over TCP or the control API
 * over HTTP, never through the model objects, so the tests see what a device worker sees.
 */
import Adb from '@devicefarmer/adbkit';
import type { Client } from '@devicefarmer/adbkit';
import { XMLParser } from 'fast-xml-parser';
import { startPhoneSim, type PhoneSim, type PhoneSimOptions } from './index';

export type DeviceClient = ReturnType<Client['getDevice']>;

export interface XNode {
  attrs: Record<string, string>;
  parent: XNode | null;
  children: XNode[];
  depth: number;
}

async function startTestSim(
  opts: Partial<PhoneSimOptions> = {},
): Promise<{ sim: PhoneSim; client: Client; control: string }> {
  const sim = await startPhoneSim({ adbPort: 0, controlPort: 0, latency: 'zero', ...opts });
  const client = Adb.createClient({ host: '127.0.0.1', port: sim.adbPort });
  return { sim, client, control: `http://127.0.0.1:${sim.controlPort}` };
}

export async function sh(device: DeviceClient, cmd: string | string[]): Promise<string> {
  return (await Adb.util.readAll(await device.shell(cmd))).toString('utf8');
}

export async function shBuf(device: DeviceClient, cmd: string): Promise<Buffer> {
  return Adb.util.readAll(await device.shell(cmd));
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => name === 'node',
  parseAttributeValue: false,
});

type Raw = { node?: Raw[] } & Record<string, unknown>;

export function parseDump(xml: string): { root: XNode; all: XNode[] } {
  const doc = parser.parse(xml) as { hierarchy?: Raw };
  if (!doc.hierarchy) throw new Error(`no hierarchy in ${xml.slice(0, 100)}`);
  const all: XNode[] = [];
  const build = (raw: Raw, parent: XNode | null, depth: number): XNode => {
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw)) if (k !== 'node' && typeof v === 'string') attrs[k] = v;
    const n: XNode = { attrs, parent, children: [], depth };
    all.push(n);
    n.children = (raw.node ?? []).map((c) => build(c, n, depth + 1));
    return n;
  };
  const top = doc.hierarchy.node?.[0];
  if (!top) throw new Error('empty hierarchy');
  return { root: build(top, null, 0), all };
}

export async function dump(device: DeviceClient): Promise<{ xml: string; all: XNode[] }> {
  const raw = await sh(device, 'uiautomator dump /dev/tty');
  const m = /UI hier\w+ dumped to: \/dev\/tty\n$/.exec(raw);
  if (!m) throw new Error(`no trailer: ${raw.slice(-120)}`);
  const xml = raw.slice(0, m.index);
  return { xml, all: parseDump(xml).all };
}

/** Dumps until the loading screen is gone (a worker does the same with a budget). */
export async function settledDump(device: DeviceClient, tries = 5): Promise<{ xml: string; all: XNode[] }> {
  for (let i = 0; i < tries; i++) {
    const d = await dump(device);
    // By class, not id: the generic id style has no descriptive ids.
    if (!d.all.some((n) => n.attrs.class === 'android.widget.ProgressBar')) return d;
  }
  throw new Error('still loading');
}

export const rid = (name: string): string => `com.xunmeng.pinduoduo:id/${name}`;

export function byId(all: XNode[], name: string): XNode[] {
  return all.filter((n) => n.attrs['resource-id'] === rid(name));
}

export function one(all: XNode[], pred: (n: XNode) => boolean, what = 'node'): XNode {
  const hits = all.filter(pred);
  if (hits.length !== 1) throw new Error(`expected exactly one ${what}, got ${hits.length}`);
  return hits[0] as XNode;
}

export function center(n: XNode): [number, number] {
  const m = /^\[(\d+),(\d+)\]\[(\d+),(\d+)\]$/.exec(n.attrs.bounds ?? '');
  if (!m) throw new Error(`bad bounds ${n.attrs.bounds}`);
  return [Math.floor((Number(m[1]) + Number(m[3])) / 2), Math.floor((Number(m[2]) + Number(m[4])) / 2)];
}

export async function tap(device: DeviceClient, n: XNode): Promise<void> {
  const [x, y] = center(n);
  await sh(device, `input tap ${x} ${y}`);
}

/** An option chip by its exact text (works in both id styles). */
export function option(all: XNode[], value: string): XNode {
  return one(
    all,
    (n) => n.attrs.class === 'android.widget.TextView' && n.attrs.clickable === 'true' && n.attrs.text === value,
    `option ${value}`,
  );
}

export async function api<T = unknown>(
  control: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(control + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // XML screens are text
  }
  return { status: res.status, body: parsed as T };
}

const goodsUrl = (id: string): string => `https://mobile.yangkeduo.com/goods.html?goods_id=${id}`;

export async function openGoods(device: DeviceClient, id: string): Promise<{ xml: string; all: XNode[] }> {
  await device.startActivity({ action: 'android.intent.action.VIEW', data: goodsUrl(id) });
  return settledDump(device);
}

/** Goods page → panel → every option → swipe → count; returns the final panel dump. */
export async function fillPanel(
  device: DeviceClient,
  goodsId: string,
  options: string[],
  qty = 1,
): Promise<{ xml: string; all: XNode[] }> {
  const page = await openGoods(device, goodsId);
  await tap(
    device,
    one(page.all, (n) => n.attrs.text?.startsWith('快要抢光 ¥') === true, 'entry'),
  );
  let d = await settledDump(device);
  for (const [i, v] of options.entries()) {
    if (i === 1) {
      await sh(device, 'input swipe 540 1900 540 1300 300');
      d = await dump(device);
    }
    await tap(device, option(d.all, v));
    d = await dump(device);
  }
  for (let q = 1; q < qty; q++) {
    await tap(
      device,
      one(d.all, (n) => n.attrs.text === '+' && n.attrs.clickable === 'true', '+'),
    );
    d = await dump(device);
  }
  return d;
}

/** What a sim test file works with: the simulator, adbkit's client, the control API's URL, the phone. */
export interface TestSimRig {
  sim: PhoneSim;
  client: Client;
  control: string;
  dev: DeviceClient;
}

/**
 * The set-up every sim test file shares: one simulator for the file, closed after it, and the
 * phones in `reset` (default: `serial`) back to their first state before each test. `bind`
 * hands the parts to the file's own variables once the simulator is up.
 */
export function useTestSim(bind: (rig: TestSimRig) => unknown, opts: { serial?: string; reset?: string[] } = {}): void {
  const serial = opts.serial ?? 'sim-phone-1';
  let rig: TestSimRig | undefined;
  beforeAll(async () => {
    const started = await startTestSim();
    rig = { ...started, dev: started.client.getDevice(serial) };
    await bind(rig);
  });
  afterAll(async () => {
    await rig?.sim.close();
  });
  beforeEach(async () => {
    for (const s of opts.reset ?? [serial]) await api(rig!.control, 'POST', `/devices/${s}/reset`);
  });
}

/** PUTs one phone's control resource (its faults, health or overlays) and insists it was taken. */
export async function putPhone(
  control: string,
  serial: string,
  resource: 'faults' | 'health' | 'overlays',
  body: object,
): Promise<void> {
  const res = await api(control, 'PUT', `/devices/${serial}/${resource}`, body);
  expect(res.status).toBe(200);
}

/** The screen the simulator says a phone shows. */
export async function screenOf(control: string, serial: string): Promise<string | undefined> {
  return (await api<{ serial: string; screen: string }[]>(control, 'GET', '/devices')).body.find(
    (d) => d.serial === serial,
  )?.screen;
}

/** The orders a phone's PDD app holds, as its control API lists them. */
export async function ordersOf<T = unknown>(control: string, serial: string): Promise<T[]> {
  return (await api<T[]>(control, 'GET', `/devices/${serial}/orders`)).body;
}

/** The text of the one node with this resource id. */
export function textOf(all: XNode[], id: string): string {
  return one(all, (n) => n.attrs['resource-id'] === rid(id), id).attrs.text ?? '';
}
