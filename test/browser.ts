import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (no browser download is possible here). The flags
 * keep it from dialling out: this machine has no network but the package registries.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CMAUTOBUY_CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}: npm test installs Debian's "chromium"; or set CMAUTOBUY_CHROMIUM`);
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
