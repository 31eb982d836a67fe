import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { UiDumpOutput } from '../adb/output';
import { FIXTURES_DIR } from '../pdd/fixtures';
import { profileForVersion } from '../pdd/profile';
import { parseUiDump } from '../pdd/ui-xml';
import { HoldRecorder, holdFrameVerdict, type HoldFrameUpload } from './hold-recorder';

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
