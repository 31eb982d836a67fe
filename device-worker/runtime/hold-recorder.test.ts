import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { UiDumpOutput } from '../adb/output';
import { FIXTURES_DIR } from '../pdd/fixtures';
import { profileForVersion } from '../pdd/profile';
import { parseUiDump } from '../pdd/ui-xml';
import { MAX_SCREEN_NODE_CHARS, MAX_SCREEN_NODES, type ScreenNodesUpload } from '../../domain/screen-nodes';
import { HoldRecorder, holdFrameVerdict, screenNodesOf, type HoldFrameUpload } from './hold-recorder';

/**
 * What a held phone's recording keeps, decided by the worker's own classifier on recorded screens:
 * PDD's pages and the launcher are kept, the cashier, a payment hand-off, a payment app, any other
 * app, a password keypad and a screen nobody profiled never are; a screen that changed between
 * the read and the picture is not kept either.
 */
const profile = profileForVersion('8.17.0');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES_DIR, name, 'window.xml'), 'utf8');
const verdictOf = (xml: string) => holdFrameVerdict(parseUiDump(xml), profile);

/** The fixture's screen with every node's package changed: another app drawing the same nodes. */
const asPackage = (xml: string, pkg: string) => xml.replaceAll('package="com.xunmeng.pinduoduo"', `package="${pkg}"`);

describe('which seconds of a held phone are kept', () => {
  it.each(['cashier', 'payment-handoff'])('%s (both id styles): never', (screen) => {
    for (const style of ['descriptive', 'generic'])
      expect(verdictOf(fixture(`${style}-${screen}`))).toEqual({ keep: false, why: 'payment' });
  });

  it.each([
    ['goods-detail', 'goods_detail'],
    ['sku-panel', 'sku_panel'],
    ['home', 'home'],
    ['launcher', 'launcher'],
    ['orders', 'orders'],
    ['page-risk-slider', 'stop_page:risk_slider'],
  ])('%s: kept', (name, screen) => {
    expect(verdictOf(fixture(`descriptive-${name}`))).toEqual({ keep: true, screen });
  });

  it('a password keypad over a kept page: never', () => {
    const goods = fixture('descriptive-goods-detail');
    const keypad = goods.replace('text=""', 'text="请输入支付密码"');
    expect(verdictOf(keypad)).toEqual({ keep: false, why: 'payment' });
    expect(verdictOf(goods.replace('text=""', 'text="输入密码"'))).toEqual({ keep: false, why: 'payment' });
  });

  it('a payment app or any other app: never', () => {
    const home = fixture('descriptive-home');
    expect(verdictOf(asPackage(home, 'com.tencent.mm'))).toEqual({ keep: false, why: 'payment' });
    expect(verdictOf(asPackage(home, 'com.eg.android.AlipayGphone'))).toEqual({ keep: false, why: 'payment' });
    expect(verdictOf(asPackage(home, 'com.android.settings'))).toEqual({ keep: false, why: 'other_app' });
  });

  it('a PDD screen no profile names, or something unprofiled drawn over a page: never', () => {
    expect(verdictOf(fixture('descriptive-open-custom-overlay'))).toEqual({ keep: false, why: 'unclassified' });
    const bare =
      '<?xml version=\'1.0\' encoding=\'UTF-8\' standalone=\'yes\' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.xunmeng.pinduoduo" content-desc="" clickable="false" enabled="true" bounds="[0,0][1080,2376]" /></hierarchy>';
    expect(verdictOf(bare)).toEqual({ keep: false, why: 'unclassified' });
  });
});

describe('the recorder', () => {
  const log = pino({ level: 'silent' });
  const PNG = Buffer.from('png');
  const xml = (out: string): UiDumpOutput => ({ kind: 'xml', xml: out });

  function recorder(reads: Array<UiDumpOutput | (() => Promise<UiDumpOutput>)>, version = '8.17.0') {
    const sent: Array<{ holdSince: string; capturedAt: string }> = [];
    const upload: HoldFrameUpload = async (_png, meta) => {
      sent.push(meta);
      return true;
    };
    let i = 0;
    const adb = {
      dumpUi: async () => {
        const next = reads[Math.min(i++, reads.length - 1)]!;
        return typeof next === 'function' ? next() : next;
      },
      screencap: async () => PNG,
      versionName: async () => version,
    };
    return { rec: new HoldRecorder({ adb, upload, log, intervalMs: 20 }), sent };
  }
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('sends the same screen on both sides of the picture, tagged with its hold', async () => {
    const { rec, sent } = recorder([xml(fixture('descriptive-goods-detail'))]);
    rec.follow({ since: '2026-12-07T04:00:00Z' });
    await wait(100);
    rec.follow(null);
    await rec.stop();
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((m) => m.holdSince === '2026-12-07T04:00:00Z')).toBe(true);
    expect(rec.stats().stored).toBe(sent.length);
  });

  it('sends nothing of the cashier, nor a picture taken as the screen turned to it', async () => {
    const goods = xml(fixture('descriptive-goods-detail'));
    const cashier = xml(fixture('descriptive-cashier'));
    const { rec, sent } = recorder([goods, cashier]);
    rec.follow({ since: '2026-12-07T04:00:00Z' });
    await wait(100);
    await rec.stop();
    expect(sent).toEqual([]);
    expect(rec.stats().skipped.payment).toBeGreaterThan(1);
  });

  it('a failed read or an unprofiled PDD version sends nothing', async () => {
    const failed = recorder([{ kind: 'error', message: 'ERROR: could not get idle state.' }]);
    failed.rec.follow({ since: '2026-12-07T04:00:00Z' });
    const unprofiled = recorder([xml(fixture('descriptive-goods-detail'))], '9.0.0');
    unprofiled.rec.follow({ since: '2026-12-07T04:00:00Z' });
    await wait(80);
    await failed.rec.stop();
    await unprofiled.rec.stop();
    expect([...failed.sent, ...unprofiled.sent]).toEqual([]);
    expect(failed.rec.stats().skipped.unreadable).toBeGreaterThan(0);
    expect(unprofiled.rec.stats().skipped.unclassified).toBeGreaterThan(0);
  });

  it('one frame at a time: a slow read skips ticks instead of queueing them', async () => {
    const goods = fixture('descriptive-goods-detail');
    const { rec, sent } = recorder([() => wait(150).then(() => xml(goods))]);
    rec.follow({ since: '2026-12-07T04:00:00Z' });
    await wait(200);
    rec.follow(null);
    await rec.stop();
    expect(rec.stats().busy).toBeGreaterThan(3);
    expect(sent.length).toBeLessThanOrEqual(1);
  });

  it('a new hold starts its own recording; after the stop nothing starts again', async () => {
    const { rec, sent } = recorder([xml(fixture('descriptive-home'))]);
    rec.follow({ since: '2026-12-07T04:00:00Z' });
    await wait(50);
    rec.follow({ since: '2026-12-07T04:05:00Z' });
    await wait(50);
    await rec.stop();
    rec.follow({ since: '2026-12-07T04:10:00Z' });
    const count = sent.length;
    await wait(60);
    expect(sent.length).toBe(count);
    expect(new Set(sent.map((m) => m.holdSince))).toEqual(new Set(['2026-12-07T04:00:00Z', '2026-12-07T04:05:00Z']));
  });
});

describe('the nodes a held phone shows, for 教弹窗', () => {
  const log = pino({ level: 'silent' });

  function recorder(screens: string[]) {
    const reads: ScreenNodesUpload[] = [];
    let i = 0;
    const adb = {
      dumpUi: async (): Promise<UiDumpOutput> => ({ kind: 'xml', xml: screens[Math.min(i++, screens.length - 1)]! }),
      screencap: async () => Buffer.from('png'),
      versionName: async () => '8.17.0',
    };
    const sendNodes = async (read: ScreenNodesUpload) => {
      reads.push(read);
      return true;
    };
    return { rec: new HoldRecorder({ adb, upload: async () => true, sendNodes, log, intervalMs: 20 }), reads };
  }

  it('a popup nobody profiled is offered once while it stays, with its texts', async () => {
    const { rec, reads } = recorder([fixture('descriptive-open-custom-overlay')]);
    rec.follow({ since: '2026-12-07T04:00:00Z' });
    await new Promise((r) => setTimeout(r, 120));
    await rec.stop();
    expect(reads).toHaveLength(1);
    expect(reads[0]!.hold_since).toBe('2026-12-07T04:00:00Z');
    const nodes = reads[0]!.nodes;
    expect(nodes.map((n) => n.text)).toContain('快要抢光');
    expect(nodes.every((n) => n.text !== '' || n.content_desc !== '' || n.clickable)).toBe(true);
    expect(nodes[0]!.bounds).toHaveLength(4);
  });

  it('never the cashier nor another app', async () => {
    const cashier = recorder([fixture('descriptive-cashier')]);
    const other = recorder([asPackage(fixture('descriptive-home'), 'com.android.settings')]);
    cashier.rec.follow({ since: '2026-12-07T04:00:00Z' });
    other.rec.follow({ since: '2026-12-07T04:00:00Z' });
    await new Promise((r) => setTimeout(r, 80));
    await cashier.rec.stop();
    await other.rec.stop();
    expect([...cashier.reads, ...other.reads]).toEqual([]);
  });

  it('cuts a read to the admin bounds', () => {
    const long = 'a'.repeat(300);
    const many = `<?xml version='1.0' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.xunmeng.pinduoduo" content-desc="" clickable="false" enabled="true" bounds="[0,0][1080,2376]">${Array.from(
      { length: 450 },
      (_, i) =>
        `<node index="${i}" text="${long}" resource-id="" class="android.widget.TextView" package="com.xunmeng.pinduoduo" content-desc="" clickable="false" enabled="true" bounds="[0,0][10,10]" />`,
    ).join('')}</node></hierarchy>`;
    const nodes = screenNodesOf(parseUiDump(many));
    expect(nodes).toHaveLength(MAX_SCREEN_NODES);
    expect(nodes[0]!.text).toHaveLength(MAX_SCREEN_NODE_CHARS);
  });
});
