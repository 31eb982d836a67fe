import fs from 'node:fs';
import path from 'node:path';
import { PDD_PACKAGE } from '../../domain/pdd-app';
import type { AdbDevice } from '../adb/adb-device';
import { DeviceError, isDeviceError } from '../errors';
import type { PddProfile } from './profile';
import { classify, type Screen } from './screens';
import { privateDataIn } from './fixture-privacy';
import { parseUiDump } from './ui-xml';

/**
 * Fixtures: screens recorded from a phone (`npm run device -- capture`), one folder each under
 * device-worker/pdd/fixtures/<name>/ — `window.xml` and `meta.json` (app version, time, and, when
 * known, the screen it shows): what the classifier reads, nothing more. A screen that shows a phone
 * number, an address or a recipient's name is refused (./fixture-privacy.ts). `npm run device -- check-profile` and the fixture test
 * read every one with a profile: a new app version is checked against real screens before a tap.
 */
export const FIXTURES_DIR = path.join(__dirname, 'fixtures');

export interface FixtureMeta {
  name: string;
  app_version: string | null;
  captured_at: string;
  /** the phone it was captured on: fixtures from before only (a serial names a handset) */
  serial?: string;
  /** what the screen is, as `screenLabel` names it; absent when nobody said */
  expect?: string;
}

const NAME_RE = /^[a-z0-9][a-z0-9._-]{0,79}$/;

/**
 * Records what the phone shows now, as the classifier needs it: the dump, the app version and the
 * time — no screenshot, no serial. A dump with a person's data in it is refused and nothing is written.
 */
export async function captureFixture(
  adb: AdbDevice,
  opts: { dir: string; name: string; expect?: string },
): Promise<FixtureMeta> {
  if (!NAME_RE.test(opts.name))
    throw new DeviceError(
      'INVALID_INPUT',
      `fixture name ${JSON.stringify(opts.name)}: lower-case letters, digits, . _ -`,
    );
  const out = await adb.dumpUi();
  if (out.kind !== 'xml') throw new DeviceError('ADB_FAILED', `uiautomator dump failed: ${out.message}`);
  const dump = parseUiDump(out.xml); // a dump we cannot parse is no fixture
  const found = privateDataIn(dump);
  if (found)
    throw new DeviceError(
      'INVALID_INPUT',
      `the screen shows ${found}: a fixture never carries a person's data; nothing was written`,
    );
  const meta: FixtureMeta = {
    name: opts.name,
    app_version: await adb.versionName(PDD_PACKAGE),
    captured_at: new Date().toISOString(),
    ...(opts.expect ? { expect: opts.expect } : {}),
  };
  const dir = path.join(opts.dir, opts.name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'window.xml'), out.xml);
  fs.writeFileSync(path.join(dir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
  return meta;
}

/** A screen as one word: the kind, with the interstitial's name or the stop page's code. */
function screenLabel(s: Screen): string {
  if (s.kind === 'interstitial') return `interstitial:${s.name}`;
  if (s.kind === 'stop_page') return `stop_page:${s.code}`;
  return s.kind;
}

export interface FixtureCheck {
  fixture: string;
  app_version: string | null;
  /** what the profile reads the screen as; null when it cannot read it */
  screen: string | null;
  expect: string | null;
  /** why the profile cannot read it, or how it differs from what was expected */
  problem: string | null;
}

/** Every fixture of `dir` read with `profile`: which screen it is, or why it cannot be read. */
export function checkFixtures(profile: PddProfile, dir = FIXTURES_DIR): FixtureCheck[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, 'window.xml')))
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const meta = JSON.parse(fs.readFileSync(path.join(dir, name, 'meta.json'), 'utf8')) as FixtureMeta;
      const expect = meta.expect ?? null;
      try {
        const screen = screenLabel(
          classify(parseUiDump(fs.readFileSync(path.join(dir, name, 'window.xml'), 'utf8')), profile),
        );
        const unread = screen === 'unknown' ? 'no profiled screen matches' : null;
        const differs = expect !== null && expect !== screen ? `expected ${expect}` : null;
        return { fixture: name, app_version: meta.app_version, screen, expect, problem: unread ?? differs };
      } catch (err) {
        const message = isDeviceError(err) ? `${err.code}: ${err.message}` : (err as Error).message;
        return { fixture: name, app_version: meta.app_version, screen: null, expect, problem: message };
      }
    });
}
