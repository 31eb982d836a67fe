import type { Page } from 'playwright-core';
import { encoderMissing } from '../../sim/phone/screen/scrcpy-encoder';
import { SCREEN_PAINTED, startBrowserRig, waitInPage, type BrowserRig } from '../browser';
import { TEST_ADMIN_PASSWORD } from '../harness';
import { startHostRig, type HostRig } from '../phone-host/host-rig';

/**
 * The scrcpy path in Chromium (ui/dist must be built: `npm run build:ui`): an API 34 phone (no
 * minicap build) of a real phone host streams H.264; the admin relays it, and the screen page
 * decodes it with WebCodecs onto its canvas. A second viewer who opens the page later gets the
 * last key frame and what followed from the admin, and is drawn at once too. The simulator
 * encodes with ffmpeg: `npm test` installs Debian's package when it runs as root.
 */
jest.setTimeout(300_000);
const SERIAL = 'h264-ui';
const missing = encoderMissing();
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const maySkip = missing !== null && !isRoot;

let rig: BrowserRig;
let host: HostRig;
let deviceId: string;

async function openScreen(p: Page): Promise<void> {
  const hash = `/devices/${deviceId}/screen`;
  await p.goto(`${rig.admin.url}/#${hash}`);
  if ((await p.getByTestId('login-username').count()) > 0 || !(await p.url()).endsWith(hash)) {
    await p.getByTestId('login-username').fill('admin');
    await p.getByTestId('login-password').fill(TEST_ADMIN_PASSWORD);
    await p.getByTestId('login-submit').click();
  }
  await waitInPage<string>(p, 'window.location.hash', (h) => h === `#${hash}`, 30_000);
  await p.getByTestId('page-device-screen').waitFor();
}

const run = maySkip ? describe.skip : describe;
run(`an H.264 screen in the browser${maySkip ? ` (skipped: ${missing}, and not root to install ffmpeg)` : ''}`, () => {
  beforeAll(async () => {
    if (missing) throw new Error(`the simulator cannot encode H.264: ${missing}; npm test installs ffmpeg as root`);
    rig = await startBrowserRig();
    host = await startHostRig(rig.admin, rig.api, [SERIAL]);
    deviceId = host.devices.get(SERIAL) as string;
    host.sim.phone(SERIAL).setFaults({ android_sdk: 34 });
  }, 240_000);
  afterAll(async () => {
    await host?.close();
    await rig?.close();
  });

  test('an API 34 phone is drawn from its video stream (视频流), for a late viewer too', async () => {
    const page = rig.page;
    await openScreen(page);
    expect(await waitInPage<number>(page, SCREEN_PAINTED, (n) => n > 50, 60_000)).toBeGreaterThan(50);
    await page.getByTestId('screen-path').waitFor();
    expect(await page.getByTestId('screen-path').textContent()).toBe('视频流');
    expect(await page.getByTestId('screen-path').getAttribute('data-path')).toBe('scrcpy');
    expect(await page.getByTestId('screen-error').count()).toBe(0);
    await waitInPage<string>(
      page,
      `document.querySelector('[data-testid="screen-fps"]')?.textContent ?? ''`,
      (t) => /每秒 [1-9]\d* 帧/.test(t),
      15_000,
    );

    const late = await rig.context.newPage();
    await openScreen(late);
    expect(await waitInPage<number>(late, SCREEN_PAINTED, (n) => n > 50, 20_000)).toBeGreaterThan(50);
    expect(await late.getByTestId('screen-path').textContent()).toBe('视频流');
    await late.close();
  });
});
