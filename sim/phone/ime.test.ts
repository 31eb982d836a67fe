import path from 'node:path';
import type { PhoneSim } from './index';
import { decodeModifiedUtf7 } from './shell/utf7';
import {
  api,
  one,
  openGoods,
  putPhone,
  rid,
  settledDump,
  sh,
  tap,
  textOf,
  useTestSim,
  type DeviceClient,
} from './testkit';

let sim: PhoneSim;
let control: string;
let dev: DeviceClient;

useTestSim((rig) => ({ sim, control, dev } = rig));

const SERIAL = 'sim-phone-1';
const GOODS = '937122477375';
const LATIN = 'com.android.inputmethod.latin/.LatinIME';
const UNICODE = 'io.appium.settings/.UnicodeIME';
const APK = path.join(
  path.dirname(require.resolve('io.appium.settings/package.json')),
  'apks',
  'settings_apk-debug.apk',
);
const REMOTE_APK = '/data/local/tmp/settings_apk-debug.apk';

/**
 * A reference encoder written from RFC 3501 section 5.1.3 alone: printable ASCII but `&` as itself,
 * `&` as `&-`, every other run as `&` + base64 of its UTF-16BE units (`,` for `/`, no `=`) + `-`.
 */
function encode(s: string): string {
  let text = '';
  let run: number[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    const bytes = Buffer.from(run.flatMap((u) => [u >> 8, u & 0xff]));
    text += `&${bytes.toString('base64').replace(/=+$/, '').replaceAll('/', ',')}-`;
    run = [];
  };
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0x20 && u <= 0x7e) {
      flush();
      text += u === 0x26 ? '&-' : s[i];
    } else run.push(u);
  }
  flush();
  return text;
}

describe('modified UTF-7 (the Unicode IME reads it)', () => {
  test.each([
    ['中文', '&Ti1lhw-'],
    ['a&b', 'a&-b'],
    ['价格 12元', '&TvdoPA- 12&UUM-'],
    ['&', '&-'],
    ['plain ASCII ~!', 'plain ASCII ~!'],
  ])('%s is %s', (text, utf7) => {
    expect(encode(text)).toBe(utf7);
    expect(decodeModifiedUtf7(utf7)).toBe(text);
  });

  test('round trips mixed text, an emoji (a surrogate pair) and runs of every length', () => {
    for (const text of ['拼多多 ¥12.88 券后', '😀 ok', 'é', 'éé', 'ééé', '&&中&-', '/,+', '验证码：123456'])
      expect(decodeModifiedUtf7(encode(text))).toBe(text);
  });

  test('what does not decode is typed as it came', () => {
    for (const keys of ['&Ti1lhw', '&T-', '&Ti1l!hw-', 'a&'] as const) expect(decodeModifiedUtf7(keys)).toBe(keys);
  });
});

async function installSettings(): Promise<void> {
  const transfer = await dev.push(APK, REMOTE_APK);
  await new Promise<void>((resolve, reject) => {
    transfer.on('end', resolve);
    transfer.on('error', reject);
  });
  expect(await sh(dev, `pm install -r -g ${REMOTE_APK}`)).toBe('Success\n');
}

/** The risk_sms page with its code field tapped (it has the focus). */
async function focusedCodeField(): Promise<string> {
  await putPhone(control, SERIAL, 'faults', { page_on: { open: 'risk_sms' } });
  const { all } = await openGoods(dev, GOODS);
  await tap(
    dev,
    one(all, (n) => n.attrs['resource-id'] === rid('et_sms_code'), 'et_sms_code'),
  );
  return (await api<{ code: string }>(control, 'GET', `/devices/${SERIAL}/challenge`)).body.code;
}

const typed = () => sim.phone(SERIAL).typed.map(({ text, ime }) => ({ text, ime }));

describe('io.appium.settings and its Unicode IME', () => {
  test('install, enable, set, type Chinese into the focused field, and put the keyboard back', async () => {
    expect(await sh(dev, 'settings get secure default_input_method')).toBe(`${LATIN}\n`);
    expect(await sh(dev, 'ime list -s')).toBe(`${LATIN}\n`);
    await installSettings();
    expect(await sh(dev, 'dumpsys package io.appium.settings')).toMatch(/^ {4}versionName=8\.0\.10$/m);
    expect(await sh(dev, 'pm list packages')).toContain('package:io.appium.settings\n');
    expect(await sh(dev, 'ime list -a -s')).toBe(`${LATIN}\n${UNICODE}\n`);
    expect(await sh(dev, 'ime list -s')).toBe(`${LATIN}\n`);

    expect(await sh(dev, `ime enable ${UNICODE}`)).toBe(`Input method ${UNICODE}: now enabled\n`);
    expect(await sh(dev, `ime enable ${UNICODE}`)).toBe(`Input method ${UNICODE}: already enabled\n`);
    expect(await sh(dev, 'ime list -s')).toBe(`${LATIN}\n${UNICODE}\n`);
    expect(await sh(dev, `ime set ${UNICODE}`)).toBe(`Input method ${UNICODE} selected for user #0\n`);
    expect(await sh(dev, 'settings get secure default_input_method')).toBe(`${UNICODE}\n`);

    const code = await focusedCodeField();
    // as a host sends it: modified UTF-7, single-quoted for the shell, spaces as %s
    const words = `验证码 ${code}`;
    expect(await sh(dev, `input text '${encode(words).replaceAll(' ', '%s')}'`)).toBe('');
    expect(typed()).toEqual([{ text: words, ime: UNICODE }]);
    // a number field: the Chinese reached it, the digits are what it keeps
    expect(textOf((await settledDump(dev)).all, 'et_sms_code')).toBe(code);
    await sh(dev, "input text '&-'");
    expect(typed()[1]).toEqual({ text: '&', ime: UNICODE });

    expect(await sh(dev, `ime set ${LATIN}`)).toBe(`Input method ${LATIN} selected for user #0\n`);
    expect(await sh(dev, 'settings get secure default_input_method')).toBe(`${LATIN}\n`);
  });

  test('base64 digits decode under the Unicode IME; without it the same keys type themselves', async () => {
    const digits = '&ADEAMgAz-';
    expect(decodeModifiedUtf7(digits)).toBe('123');
    await installSettings();
    await focusedCodeField();
    await sh(dev, `input text '${digits}'`);
    expect(typed()).toEqual([{ text: digits, ime: LATIN }]);
    expect(textOf((await settledDump(dev)).all, 'et_sms_code')).toBe('');

    await sh(dev, `ime enable ${UNICODE} && ime set ${UNICODE}`);
    await sh(dev, `input text '${digits}'`);
    expect(typed()[1]).toEqual({ text: '123', ime: UNICODE });
    expect(textOf((await settledDump(dev)).all, 'et_sms_code')).toBe('123');
  });

  test('an IME whose package is not installed cannot be enabled or set; a reset brings the phone keyboard back', async () => {
    expect(await sh(dev, `ime enable ${UNICODE}`)).toBe(
      `Unknown input method ${UNICODE} cannot be enabled for user #0\n`,
    );
    expect(await sh(dev, `ime set ${UNICODE}`)).toBe(
      `Unknown input method ${UNICODE} cannot be selected for user #0\n`,
    );
    expect(await sh(dev, 'settings get secure default_input_method')).toBe(`${LATIN}\n`);

    await installSettings();
    // installed but not enabled: Android will not switch to it either
    expect(await sh(dev, `ime set ${UNICODE}`)).toMatch(/cannot be selected/);
    await sh(dev, `ime enable ${UNICODE} && ime set ${UNICODE}`);
    await api(control, 'POST', `/devices/${SERIAL}/reset`);
    expect(await sh(dev, 'settings get secure default_input_method')).toBe(`${LATIN}\n`);
    expect(await sh(dev, 'ime list -s')).toBe(`${LATIN}\n`);
  });
});

describe('input a person sends from the live screen', () => {
  const screen = async (): Promise<string | undefined> =>
    (await api<{ serial: string; screen: string }[]>(control, 'GET', '/devices')).body.find((d) => d.serial === SERIAL)
      ?.screen;

  test('a press that does not move is a tap when short and nothing when long; recents keeps the app', async () => {
    const icon = one(
      (await settledDump(dev)).all,
      (n) => n.attrs.text === '拼多多' && n.attrs.clickable === 'true',
      'the app icon',
    );
    const [x, y] = (/^\[(\d+),(\d+)\]/.exec(icon.attrs.bounds ?? '') ?? []).slice(1).map((v) => Number(v) + 20);
    expect(await sh(dev, `input swipe ${x} ${y} ${x} ${y} 1000`)).toBe('');
    expect(await screen()).toBe('launcher');
    expect(await sh(dev, `input touchscreen swipe ${x} ${y} ${x! + 5} ${y} 100`)).toBe('');
    await settledDump(dev);
    expect(await screen()).toBe('home');
    expect(await sh(dev, 'input keyevent 187')).toBe('');
    expect(await screen()).toBe('home');
    await sh(dev, 'input keyevent 3');
    expect(await screen()).toBe('launcher');
  });

  test('a long press on the slider thumb does nothing; a slow drag to the gap solves it', async () => {
    await putPhone(control, SERIAL, 'faults', { page_on: { open: 'risk_slider' } });
    await openGoods(dev, GOODS);
    const gap = (await api<{ drag_to: [number, number] }>(control, 'GET', `/devices/${SERIAL}/challenge`)).body.drag_to;
    await sh(dev, 'input swipe 190 1160 190 1160 1500');
    await settledDump(dev);
    expect(await screen()).toBe('risk_slider');
    await sh(dev, `input swipe 190 1160 ${gap[0]} ${gap[1]} 3000`);
    await settledDump(dev);
    expect(await screen()).toBe('goods_detail');
  });
});
