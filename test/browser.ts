import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { loginOperator, startTestAdmin, tempDataDir, type OperatorClient, type TestAdmin } from './harness';

/**
 * Debian's Chromium driven by playwright-core (no browser download is possible here). The flags
 * keep it from dialling out: this machine has no network but the package registries.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CMAUTOBUY_CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) {
    throw new Error(
      `Chromium not found at ${executablePath}: npm test installs Debian's "chromium"; or set CMAUTOBUY_CHROMIUM`,
    );
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export interface BrowserRig {
  admin: TestAdmin;
  api: OperatorClient;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** where screenshots go; CMAUTOBUY_TEST_SHOTS keeps them after the run (the temp dir is removed) */
  shotsDir: string;
  close(): Promise<void>;
}

/** A real admin, an API client logged in beside the browser, and one zh-CN page. */
export async function startBrowserRig(): Promise<BrowserRig> {
  const admin = await startTestAdmin();
  const api = await loginOperator(admin);
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return {
    admin,
    api,
    browser,
    context,
    page,
    shotsDir: process.env.CMAUTOBUY_TEST_SHOTS ?? tempDataDir('shots'),
    async close() {
      await context.close();
      await browser.close();
      await admin.close();
    },
  };
}

/** For waitInPage: how many of the phone screen canvas's sampled pixels are not blank (a drawn frame has many). */
export const SCREEN_PAINTED = `(() => {
  const c = document.querySelector('[data-testid="screen-canvas"]');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4 * 997) if (d[i + 3] > 0 && (d[i] > 16 || d[i + 1] > 16 || d[i + 2] > 16)) n++;
  return n;
})()`;

/**
 * Polls `expression` in the page until `accept` holds, and returns its last value. Used instead
 * of `page.waitForFunction`, which compiles its predicate inside the page and is therefore
 * refused by the UI's Content-Security-Policy (no 'unsafe-eval'); `page.evaluate` goes through
 * the DevTools protocol, which CSP does not govern, so the UI is tested under its real policy.
 */
export async function waitInPage<T>(
  page: Page,
  expression: string,
  accept: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await page.evaluate<T>(expression);
    if (accept(value)) return value;
    if (Date.now() > until)
      throw new Error(`waited ${timeoutMs} ms for ${expression.slice(0, 120)}; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the page's location hash is `expected` (a string matches whole) and returns it. */
export async function waitForHash(page: Page, expected: string | RegExp): Promise<string> {
  const accept = typeof expected === 'string' ? (h: string) => h === expected : (h: string) => expected.test(h);
  return waitInPage<string>(page, 'window.location.hash', accept, 30_000);
}

/** Waits until the element with `testid` shows `text`: a list says 正在加载… before its rows or its empty line. */
export async function waitForText(page: Page, testid: string, text: string): Promise<void> {
  const read = `document.querySelector('[data-testid="${testid}"]')?.textContent ?? ''`;
  await waitInPage<string>(page, read, (seen) => seen.includes(text));
}
