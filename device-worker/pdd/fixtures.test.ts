import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startPhoneSim, type PhoneSim } from '../../sim/phone';
import { AdbDevice } from '../adb/adb-device';
import { checkFixtures, FIXTURES_DIR, type FixtureMeta } from './fixtures';
import { loadProfileFile, loadProfiles, ProfileError, profileForVersion } from './profile';
import { PAGE_STOP_CODES } from './profile-schema';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const PROFILE_FILE = path.join(__dirname, 'profiles', '8.17.0.json');

async function device(args: string[]): Promise<{ code: number; lines: unknown[] }> {
  const parse = (out: string) =>
    out
      .split('\n')
      .filter((l) => l.trim().length > 0)
      .map((l) => JSON.parse(l) as unknown);
  try {
    const { stdout } = await run(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'device-worker/cli.ts', ...args],
      { cwd: ROOT },
    );
    return { code: 0, lines: parse(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, lines: parse(e.stdout) };
  }
}

describe('fixtures: every recorded screen, read by the 8.17.0 profile', () => {
  const profile = profileForVersion('8.17.0');
  const results = checkFixtures(profile);

  it('reads every fixture as the screen it was recorded as', () => {
    expect(results.length).toBeGreaterThan(0);
    expect(results.filter((r) => r.problem !== null || r.expect === null)).toEqual([]);
  });

  it('covers every screen, page and profiled interstitial in both id styles', () => {
    const seen = (style: string) =>
      new Set(results.filter((r) => r.fixture.startsWith(`${style}-`)).map((r) => r.screen));
    const wanted = [
      'launcher',
      'home',
      'loading',
      'goods_detail',
      'goods_delisted',
      'sku_panel',
      'cashier',
      'orders',
      'payment_handoff',
      'overlay',
      ...PAGE_STOP_CODES.map((c) => `stop_page:${c}`),
      ...profile.interstitials.map((i) => `interstitial:${i.name}`),
    ];
    for (const style of ['descriptive', 'generic'])
      expect([style, wanted.filter((w) => !seen(style).has(w))]).toEqual([style, []]);
  });

  it('the generic fixtures carry no descriptive id (the real app: …:id/pdd or none)', () => {
    const ids = new Set<string>();
    for (const r of results.filter((x) => x.fixture.startsWith('generic-'))) {
      const xml = fs.readFileSync(path.join(FIXTURES_DIR, r.fixture, 'window.xml'), 'utf8');
      for (const m of xml.matchAll(/resource-id="([^"]*)"/g)) ids.add(m[1] as string);
    }
    // the custom overlay keeps no id either; only the launcher's and Alipay's own nodes could
    expect([...ids].filter((id) => id !== '' && id !== 'com.xunmeng.pinduoduo:id/pdd')).toEqual([]);
  });
});

describe('profiles are validated data', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiles-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const withEdit = (edit: (d: Record<string, unknown>) => void): string => {
    const d = JSON.parse(fs.readFileSync(PROFILE_FILE, 'utf8')) as Record<string, unknown>;
    edit(d);
    const file = path.join(dir, '8.17.0.json');
    fs.writeFileSync(file, JSON.stringify(d));
    return file;
  };

  it('the shipped file loads', () => {
    expect(loadProfiles().map((p) => p.appVersion)).toEqual(['8.17.0']);
  });

  it.each([
    [
      'texts.entry_label',
      (d: Record<string, unknown>) => ((d['texts'] as Record<string, unknown>)['entry_label'] = ''),
    ],
    ['reveal.lane_xs', (d: Record<string, unknown>) => ((d['reveal'] as Record<string, unknown>)['lane_xs'] = 'x')],
    [
      'pages.0.code',
      (d: Record<string, unknown>) => ((d['pages'] as Record<string, unknown>[])[0]!['code'] = 'CAPTCHA'),
    ],
    ['max_interstitials_per_purchase', (d: Record<string, unknown>) => (d['max_interstitials_per_purchase'] = 9)],
    ['colour', (d: Record<string, unknown>) => (d['colour'] = 'red')],
  ])('a bad field is refused by name: %s', (field, edit) => {
    const file = withEdit(edit);
    expect(() => loadProfileFile(file)).toThrow(ProfileError);
    expect(() => loadProfileFile(file)).toThrow(
      field === 'colour' ? /colour/ : new RegExp(`field ${field.replace(/\./g, '\\.')}`),
    );
  });

  it.each(['立即领取', '去使用', '立即更新', '去支付', '领取'])(
    'a close control that accepts or navigates (%s) is refused',
    (text) => {
      const file = withEdit((d) => {
        const list = d['interstitials'] as Record<string, unknown>[];
        list[0]!['close'] = { text };
      });
      expect(() => loadProfileFile(file)).toThrow(/field interstitials\.0\.close/);
    },
  );

  it('check-profile with a bad profile file refuses to start, naming the field', async () => {
    withEdit((d) => ((d['urls'] as Record<string, unknown>)['goods'] = 'ftp://nowhere'));
    const out = await device(['check-profile', '--version', '8.17.0', '--profiles', dir]);
    expect(out.code).not.toBe(0);
    expect(out.lines).toEqual([
      { error: { code: 'PROFILE_INVALID', message: expect.stringMatching(/field urls\.goods/) } },
    ]);
  });
});

describe('npm run device -- capture / check-profile', () => {
  let sim: PhoneSim;
  let dir: string;
  beforeAll(async () => {
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: ['cap-phone'] });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-'));
  });
  afterAll(async () => {
    await sim?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('records the screen as the classifier needs it (XML, app version, time; no screenshot, no serial); check-profile says which screen each fixture is', async () => {
    sim.phone('cap-phone').setFaults({ id_style: 'generic' });
    const port = String(sim.adbPort);
    const cap = await device([
      'capture',
      '--serial',
      'cap-phone',
      '--name',
      'phone-now',
      '--dir',
      dir,
      '--adb-port',
      port,
    ]);
    expect(cap.code).toBe(0);
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'phone-now', 'meta.json'), 'utf8')) as FixtureMeta;
    expect(meta).toEqual({ name: 'phone-now', app_version: '8.17.0', captured_at: expect.any(String) });
    expect(Date.parse(meta.captured_at)).not.toBeNaN();
    expect(fs.readdirSync(path.join(dir, 'phone-now')).sort()).toEqual(['meta.json', 'window.xml']);
    expect(fs.readFileSync(path.join(dir, 'phone-now', 'window.xml'), 'utf8')).toContain('<hierarchy');
    // a screen no profile knows is named as unreadable, with a non-zero exit
    fs.mkdirSync(path.join(dir, 'odd'));
    fs.writeFileSync(
      path.join(dir, 'odd', 'window.xml'),
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="?" resource-id="" class="android.widget.FrameLayout" package="com.xunmeng.pinduoduo" content-desc="" clickable="false" enabled="true" selected="false" scrollable="false" bounds="[0,0][1080,2376]" /></hierarchy>`,
    );
    fs.writeFileSync(
      path.join(dir, 'odd', 'meta.json'),
      JSON.stringify({ name: 'odd', app_version: '8.17.0', captured_at: '', serial: 'x' }),
    );
    const check = await device(['check-profile', '--version', '8.17.0', '--fixtures', dir]);
    expect(check.code).toBe(1);
    expect(check.lines).toEqual([
      expect.objectContaining({ fixture: 'odd', screen: 'unknown', problem: expect.any(String) }),
      expect.objectContaining({ fixture: 'phone-now', screen: 'launcher', problem: null }),
    ]);
  });

  it.each([
    ['a phone number', '13812345678', 'a phone number'],
    ['an address', '广东省深圳市南山区科技园路1号', 'an address'],
    ['a recipient', '收货人：张三', "a recipient's name"],
  ])('a screen with %s is refused and nothing is written', async (_what, shown, kind) => {
    const serial = 'cap-phone';
    sim.phone(serial).reset();
    const adb = new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial });
    await adb.startView('https://mobile.yangkeduo.com/goods.html?goods_id=937122477375');
    for (let i = 0; i < 5; i++) {
      const d = await adb.dumpUi();
      if (d.kind === 'xml' && !d.xml.includes('加载中')) break;
    }
    const node = (text: string, bounds: number[]) => ({
      text,
      resource_id: '',
      class: 'android.widget.TextView',
      content_desc: '',
      clickable: false,
      bounds,
      action: 'none',
    });
    const res = await fetch(`http://127.0.0.1:${sim.controlPort}/devices/${serial}/overlays`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        overlays: [
          {
            id: 'address-card',
            when: 'open',
            bounds: [60, 600, 1020, 1200],
            nodes: [node('收货信息', [100, 650, 980, 760]), node(shown, [100, 800, 980, 900])],
          },
        ],
      }),
    });
    expect(res.status).toBe(200);
    const name = `private-${kind.length}`;
    const cap = await device([
      'capture',
      '--serial',
      serial,
      '--name',
      name,
      '--dir',
      dir,
      '--adb-port',
      String(sim.adbPort),
    ]);
    expect(cap.code).not.toBe(0);
    expect(cap.lines).toEqual([{ error: { code: 'INVALID_INPUT', message: expect.stringContaining(kind) } }]);
    // the data itself is not repeated in the refusal
    expect(JSON.stringify(cap.lines)).not.toContain(shown);
    expect(fs.existsSync(path.join(dir, name))).toBe(false);
  });
});
