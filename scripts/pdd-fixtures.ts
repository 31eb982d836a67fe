/**
 * Writes device-worker/pdd/fixtures/ anew from the phone simulator: every simulated screen, page
 * and overlay, in both id styles, each recorded by the same capture as `npm run device -- capture`
 * and labelled with the screen it shows. Run after the simulator's screens change:
 *
 *   npx tsx scripts/pdd-fixtures.ts
 *
 * The fixture test (device-worker/pdd/fixtures.test.ts) then proves the profile reads them all.
 */
import fs from 'node:fs';
import { startPhoneSim } from '../sim/phone';
import type { Phone } from '../sim/phone/phone';
import { AdbDevice } from '../device-worker/adb/adb-device';
import { CounterClock } from '../device-worker/counters';
import { captureFixture, FIXTURES_DIR } from '../device-worker/pdd/fixtures';
import { profileForVersion, type PddProfile } from '../device-worker/pdd/profile';
import { prepareFinalPanel } from '../device-worker/pdd/purchase/prepare';
import { PURCHASE_8_17_0 } from '../device-worker/pdd/purchase/profile';
import { PurchaseSession } from '../device-worker/pdd/purchase/purchase-session';
import { readSubmitControl } from '../device-worker/pdd/purchase/final-panel';
import { DEFAULT_TIMING } from '../device-worker/pdd/session';
import { StepLog } from '../device-worker/step-log';

const SERIAL = 'fixture-phone';
const GOODS = '937122477375';
const GOODS_URL = `https://mobile.yangkeduo.com/goods.html?goods_id=${GOODS}`;
const PAGES: [string, string][] = [
  ['login', 'LOGIN_REQUIRED'],
  ['risk_slider', 'CAPTCHA_REQUIRED'],
  ['risk_face', 'RISK_FACE'],
  ['risk_sms', 'RISK_SMS'],
  ['network_error', 'NETWORK_ERROR'],
  ['app_update', 'APP_UPDATE_PROMPT'],
  ['sold_out', 'SOLD_OUT'],
  ['address_missing', 'ADDRESS_MISSING'],
];
const FAST = { ...DEFAULT_TIMING, navigationSettleMs: 0, tapSettleMs: 0, swipeSettleMs: 0, loadingPollMs: 10 };

const TARGET = {
  taskId: 'T',
  attemptId: 'A',
  authorizationId: 'fixture',
  goodsId: GOODS,
  goodsUrl: GOODS_URL,
  options: { 颜色分类: '黑色', 尺码: 'M' },
  quantity: 1,
  maxTotalPriceCent: 5000,
  mode: 'live' as const,
};

/** The phone in one id style: reset to it, driven, and captured under names that start with it. */
class FixtureRun {
  constructor(
    readonly adb: AdbDevice,
    private readonly phone: Phone,
    private readonly control: string,
    private readonly style: 'descriptive' | 'generic',
    readonly profile: PddProfile,
  ) {}

  reset(faults: object = {}): void {
    this.phone.reset();
    this.phone.setFaults({ ...(this.style === 'generic' ? { id_style: 'generic' } : {}), ...faults });
  }

  capture(name: string, expect: string): Promise<unknown> {
    return captureFixture(this.adb, {
      dir: FIXTURES_DIR,
      name: `${this.style}-${name}`,
      expect,
    });
  }

  /** dumps until the loading screen is gone (a capture is one more dump) */
  async settle(): Promise<void> {
    for (let i = 0; i < 5; i++) {
      const d = await this.adb.dumpUi();
      if (d.kind === 'xml' && !d.xml.includes('加载中...')) return;
    }
  }

  async open(url = GOODS_URL): Promise<void> {
    await this.adb.startView(url);
    await this.settle();
  }

  /** The purchase's own way to the final panel, so the panel is exactly the one a purchase reads. */
  async finalPanel(): Promise<PurchaseSession> {
    const session = new PurchaseSession(this.adb, this.profile, new CounterClock(), new StepLog(), FAST);
    session.setPurchaseProfile(PURCHASE_8_17_0);
    await prepareFinalPanel(session, PURCHASE_8_17_0, TARGET, {}, { evidence: async () => {} });
    return session;
  }

  /**
   * Dumps until the phone's overlay is drawn: one set to come after a few dumps at the final
   * panel may still be waiting when the purchase's own way there (fewer dumps) has ended.
   */
  async untilOverlayShows(): Promise<void> {
    for (let i = 0; i < 5; i++) {
      const got = await fetch(`${this.control}/devices/${SERIAL}/overlays`);
      const { overlays } = (await got.json()) as { overlays: { visible: boolean }[] };
      if (overlays.some((o) => o.visible)) return;
      await this.adb.dumpUi();
    }
    throw new Error('the overlay never showed: check its after_dumps against the dumps the flow makes');
  }

  /** The simulator's overlays on this phone (its control API, sim/phone/SCREENS.md). */
  async setOverlays(overlays: object[]): Promise<void> {
    await fetch(`${this.control}/devices/${SERIAL}/overlays`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ overlays }),
    });
  }
}

async function main(): Promise<void> {
  const sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: [SERIAL] });
  const control = `http://127.0.0.1:${sim.controlPort}`;
  const adb = new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial: SERIAL });
  const phone = sim.phone(SERIAL);
  const templates = (await (await fetch(`${control}/overlays/templates`)).json()) as { name: string }[];
  const profile = profileForVersion('8.17.0');
  fs.rmSync(FIXTURES_DIR, { recursive: true, force: true });
  try {
    for (const style of ['descriptive', 'generic'] as const) {
      const run = new FixtureRun(adb, phone, control, style, profile);
      await captureWayToPanel(run);
      await captureAfterSubmit(run);
      await captureStopPages(run);
      await captureInterstitials(run, templates);
      await captureCustomOverlay(run);
    }
  } finally {
    await sim.close();
  }
}

/** From the launcher to the spec panel, and the two pages opened by link. */
async function captureWayToPanel(run: FixtureRun): Promise<void> {
  const { adb } = run;
  run.reset();
  await run.capture('launcher', 'launcher');
  await adb.tap(180, 2020);
  await run.capture('home', 'home');
  await adb.startView(GOODS_URL);
  await run.capture('loading', 'loading');
  await run.settle();
  await run.capture('goods-detail', 'goods_detail');
  await adb.tap(810, 2252);
  await run.settle();
  await run.capture('sku-panel', 'sku_panel');
  await run.open('https://mobile.yangkeduo.com/goods.html?goods_id=600000000105');
  await run.capture('goods-delisted', 'goods_delisted');
  await run.open(PURCHASE_8_17_0.pendingOrdersUrl);
  await run.capture('orders-empty', 'orders');
}

/** The final panel and what a submit tap leads to: the cashier, the orders list, a payment hand-off. */
async function captureAfterSubmit(run: FixtureRun): Promise<void> {
  const { adb, profile } = run;
  run.reset();
  const session = await run.finalPanel();
  await run.capture('final-panel', 'sku_panel');
  const submit = readSubmitControl(session.lastDump(), profile, PURCHASE_8_17_0).point;
  await adb.tap(submit.x, submit.y);
  await run.settle();
  await run.capture('cashier', 'cashier');
  await run.open(PURCHASE_8_17_0.pendingOrdersUrl);
  await run.capture('orders', 'orders');

  run.reset({ submit_outcome: 'payment_handoff' });
  const again = await run.finalPanel();
  const p2 = readSubmitControl(again.lastDump(), profile, PURCHASE_8_17_0).point;
  await adb.tap(p2.x, p2.y);
  await run.settle();
  await run.capture('payment-handoff', 'payment_handoff');
}

/** The captcha and every stop page, each over the goods page. */
async function captureStopPages(run: FixtureRun): Promise<void> {
  run.reset({ captcha_on: 'open' });
  await run.open();
  await run.capture('captcha', 'stop_page:CAPTCHA_REQUIRED');

  for (const [page, code] of PAGES) {
    run.reset({ page_on: { open: page } });
    await run.open();
    await run.capture(`page-${page.replace(/_/g, '-')}`, `stop_page:${code}`);
  }
}

/** Every interstitial template over the goods page and over the final panel. */
async function captureInterstitials(run: FixtureRun, templates: { name: string }[]): Promise<void> {
  for (const t of templates) {
    for (const when of ['open', 'final_panel'] as const) {
      run.reset();
      await run.setOverlays([{ template: t.name, when, after_dumps: when === 'open' ? 0 : 3 }]);
      if (when === 'open') await run.open();
      else await run.finalPanel();
      await run.untilOverlayShows();
      await run.capture(`${when.replace(/_/g, '-')}-${t.name.replace(/_/g, '-')}`, `interstitial:${t.name}`);
    }
  }
}

/** An unprofiled overlay whose only clickable navigates: never an interstitial, always an overlay. */
async function captureCustomOverlay(run: FixtureRun): Promise<void> {
  run.reset();
  await run.setOverlays([
    {
      id: 'promo-bar',
      when: 'open',
      bounds: [0, 2000, 1080, 2376],
      nodes: [
        {
          text: '限时福利',
          resource_id: '',
          class: 'android.widget.TextView',
          content_desc: '',
          clickable: false,
          bounds: [100, 2020, 800, 2100],
          action: 'none',
        },
        {
          text: '立即领取 ¥0.01 抢购',
          resource_id: '',
          class: 'android.widget.TextView',
          content_desc: '',
          clickable: true,
          bounds: [36, 2196, 1044, 2356],
          action: 'navigate:home',
        },
      ],
    },
  ]);
  await run.open();
  await run.capture('open-custom-overlay', 'overlay');
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
