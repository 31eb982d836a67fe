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
import { AdbDevice } from '../device-worker/adb/adb-device';
import { CounterClock } from '../device-worker/counters';
import { captureFixture, FIXTURES_DIR } from '../device-worker/pdd/fixtures';
import { profileForVersion } from '../device-worker/pdd/profile';
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
      const reset = (faults: object = {}) => {
        phone.reset();
        phone.setFaults({ ...(style === 'generic' ? { id_style: 'generic' } : {}), ...faults });
      };
      const capture = (name: string, expect: string) =>
        captureFixture(adb, { dir: FIXTURES_DIR, name: `${style}-${name}`, serial: SERIAL, expect, png: false });
      /** dumps until the loading screen is gone (a capture is one more dump) */
      const settle = async () => {
        for (let i = 0; i < 5; i++) {
          const d = await adb.dumpUi();
          if (d.kind === 'xml' && !d.xml.includes('加载中...')) return;
        }
      };
      const open = async (url = GOODS_URL) => {
        await adb.startView(url);
        await settle();
      };
      const finalPanel = async () => {
        const session = new PurchaseSession(adb, profile, new CounterClock(), new StepLog(), FAST);
        session.setPurchaseProfile(PURCHASE_8_17_0);
        const target = {
          taskId: 'T',
          attemptId: 'A',
          authorizationId: 'fixture',
          goodsId: GOODS,
          goodsUrl: GOODS_URL,
          options: { 颜色分类: '黑色', 尺码: 'M' },
          quantity: 1,
          capCent: 5000,
          mode: 'live' as const,
        };
        await prepareFinalPanel(session, PURCHASE_8_17_0, target, {}, { evidence: async () => {} });
        return session;
      };

      reset();
      await capture('launcher', 'launcher');
      await adb.tap(180, 2020);
      await capture('home', 'home');
      await adb.startView(GOODS_URL);
      await capture('loading', 'loading');
      await settle();
      await capture('goods-detail', 'goods_detail');
      await adb.tap(810, 2252);
      await settle();
      await capture('sku-panel', 'sku_panel');
      await open('https://mobile.yangkeduo.com/goods.html?goods_id=600000000105');
      await capture('goods-delisted', 'goods_delisted');
      await open(PURCHASE_8_17_0.pendingOrdersUrl);
      await capture('orders-empty', 'orders');

      reset();
      const session = await finalPanel();
      await capture('final-panel', 'sku_panel');
      const submit = readSubmitControl(session.lastDump(), profile, PURCHASE_8_17_0).point;
      await adb.tap(submit.x, submit.y);
      await settle();
      await capture('cashier', 'cashier');
      await open(PURCHASE_8_17_0.pendingOrdersUrl);
      await capture('orders', 'orders');

      reset({ submit_outcome: 'payment_handoff' });
      const again = await finalPanel();
      const p2 = readSubmitControl(again.lastDump(), profile, PURCHASE_8_17_0).point;
      await adb.tap(p2.x, p2.y);
      await settle();
      await capture('payment-handoff', 'payment_handoff');

      reset({ captcha_on: 'open' });
      await open();
      await capture('captcha', 'stop_page:CAPTCHA_REQUIRED');

      for (const [page, code] of PAGES) {
        reset({ page_on: { open: page } });
        await open();
        await capture(`page-${page.replace(/_/g, '-')}`, `stop_page:${code}`);
      }

      for (const t of templates) {
        for (const when of ['open', 'final_panel'] as const) {
          reset();
          await fetch(`${control}/devices/${SERIAL}/overlays`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ overlays: [{ template: t.name, when, after_dumps: when === 'open' ? 0 : 3 }] }),
          });
          if (when === 'open') await open();
          else {
            const s = await finalPanel();
            void s;
          }
          await capture(`${when.replace(/_/g, '-')}-${t.name.replace(/_/g, '-')}`, `interstitial:${t.name}`);
        }
      }

      reset();
      await fetch(`${control}/devices/${SERIAL}/overlays`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          overlays: [
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
          ],
        }),
      });
      await open();
      await capture('open-custom-overlay', 'overlay');
    }
  } finally {
    await sim.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
