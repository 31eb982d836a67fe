import type { Page } from 'playwright-core';
import type { DeviceWorkerHandle } from '../../workers/device';
import type { SkusJson } from '../../domain/collect';
import { startPhoneSim, type PhoneSim } from '../../sim/phone/index';
import { DEMO_PRODUCTS } from '../../sim/syb/data';
import { demoPddUrl, demoShopeeExport } from '../../sim/syb/demo-export';
import { deviceWorker, FAST_TIMING, until } from '../device/fixtures';
import {
  issueTestDevice,
  sharedTemporal,
  TEST_ADMIN_PASSWORD,
  tempDataDir,
  type OperatorClient,
  type TestAdmin,
} from '../harness';

/**
 * The demo day's set-up that several browser tests share: one simulated phone with its real
 * device worker, and a demo product linked and collected. What a test checks on screen stays in
 * the test; this only brings the system to where the test starts.
 */
export interface DemoPhone {
  deviceId: string;
  phones: PhoneSim;
  worker: DeviceWorkerHandle;
  close(): Promise<void>;
}

export async function startDemoPhone(admin: TestAdmin, serial: string, name: string): Promise<DemoPhone> {
  const phones = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: [serial] });
  const device = await issueTestDevice(admin, name);
  const worker = await deviceWorker({
    deviceId: device.deviceId,
    serial,
    adb: { host: '127.0.0.1', port: phones.adbPort, timeouts: { reconnectMs: 1_500 } },
    dataDir: tempDataDir('device'),
    temporal: { address: sharedTemporal().address, namespace: admin.namespace },
    admin: { url: admin.url, token: device.token },
    timing: FAST_TIMING,
  });
  return {
    deviceId: device.deviceId,
    phones,
    worker,
    async close() {
      await worker.stop();
      await phones.close();
    },
  };
}

export interface CollectedGoods {
  collect_status: string;
  collect_msg: string | null;
  skus_json: SkusJson | null;
}

/** Links a demo product to its PDD goods and waits for the phone to collect them. */
export async function linkAndCollect(
  api: OperatorClient,
  product: (typeof DEMO_PRODUCTS)[number],
): Promise<CollectedGoods> {
  const linked = await api.put(`/api/shopee/products/${product.productId}/pdd-link`, {
    url: demoPddUrl(product.pddGoodsId),
  });
  if (linked.status !== 200) throw new Error(`linking ${product.productId} answered ${linked.status}`);
  const started = await api.post(`/api/pdd/products/${product.pddGoodsId}/collect`);
  if (started.status !== 202) throw new Error(`collecting ${product.pddGoodsId} answered ${started.status}`);
  return until(
    `${product.pddGoodsId} to be collected`,
    async () => {
      const r = (await api.get(`/api/pdd/products/${product.pddGoodsId}`)).body as CollectedGoods;
      return r.collect_status === 'collected' || r.collect_status === 'failed' ? r : null;
    },
    120_000,
  );
}

/** Logs in on 商品 and imports the demo Shopee export through the import panel. */
export async function importDemoExportInUi(page: Page, adminUrl: string, fileName: string): Promise<void> {
  await page.goto(`${adminUrl}/#/products`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('page-products').waitFor();
  await page.getByTestId('import-file').setInputFiles({
    name: fileName,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await demoShopeeExport(),
  });
  await page.getByTestId('import-start').click();
  await page.getByTestId('import-result').waitFor();
}
