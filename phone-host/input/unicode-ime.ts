import fs from 'node:fs';
import path from 'node:path';
import type { AdbDevice } from '../../device-worker/adb/adb-device';

/**
 * Appium's settings app (npm `io.appium.settings`) carries an input method, `.UnicodeIME`, that
 * turns keys typed in modified UTF-7 (./utf7.ts) back into Unicode: the only way `input text`,
 * which carries ASCII, can type Chinese. It is switched on for one text and the phone's own
 * keyboard is put back after.
 */
const SETTINGS_PACKAGE = 'io.appium.settings';
export const UNICODE_IME = `${SETTINGS_PACKAGE}/.UnicodeIME`;

export class UnicodeImeError extends Error {
  override readonly name = 'UnicodeImeError';
}

export interface SettingsApk {
  /** what `dumpsys package io.appium.settings` reports once it is installed */
  version: string;
  file: string;
}

/** The APK inside node_modules; a missing package or file is an install problem, said plainly. */
export function settingsApk(): SettingsApk {
  let manifest: string;
  try {
    manifest = require.resolve(`${SETTINGS_PACKAGE}/package.json`);
  } catch {
    throw new UnicodeImeError(`the npm package ${SETTINGS_PACKAGE} is not installed: run npm ci`);
  }
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
  const file = path.join(path.dirname(manifest), 'apks', 'settings_apk-debug.apk');
  if (!fs.existsSync(file)) throw new UnicodeImeError(`${file} is missing: run npm ci`);
  return { version, file };
}

export interface UnicodeImeOptions {
  /** how long the push and the install may take; default 60 s */
  installMs?: number;
  apk?: () => SettingsApk;
}

/** Installs the settings app unless the phone has this version of it. */
async function ensureSettingsApp(adb: AdbDevice, opts: UnicodeImeOptions = {}): Promise<void> {
  const apk = (opts.apk ?? settingsApk)();
  if ((await adb.versionName(SETTINGS_PACKAGE)) === apk.version) return;
  const limit = opts.installMs ?? 60_000;
  const remote = `/data/local/tmp/${path.basename(apk.file)}`;
  let out: string;
  try {
    await adb.push(fs.createReadStream(apk.file), remote, limit);
    out = await adb.shell(`pm install -r -g ${remote}`, limit);
  } finally {
    await adb.shell(`rm -f ${remote}`).catch(() => undefined);
  }
  if (!/^Success/m.test(out))
    throw new UnicodeImeError(`pm install ${SETTINGS_PACKAGE}: ${out.trim().slice(0, 200) || 'no answer'}`);
}

/** one text at a time per phone: a second would read the Unicode IME as "the keyboard to put back" */
const typing = new Map<string, Promise<unknown>>();

/**
 * Types through the Unicode IME: installs it when needed, makes it the phone's keyboard, calls
 * `type` (which sends the UTF-7 keys), and always puts the keyboard the phone had back.
 */
export function withUnicodeIme<T>(adb: AdbDevice, type: () => Promise<T>, opts: UnicodeImeOptions = {}): Promise<T> {
  const key = `${adb.target.host}:${adb.target.port}/${adb.serial}`;
  const before = typing.get(key) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(() => typeOnce(adb, type, opts));
  const settled = run.catch(() => undefined);
  typing.set(key, settled);
  void settled.then(() => {
    if (typing.get(key) === settled) typing.delete(key);
  });
  return run;
}

async function typeOnce<T>(adb: AdbDevice, type: () => Promise<T>, opts: UnicodeImeOptions): Promise<T> {
  await ensureSettingsApp(adb, opts);
  const previous = await chosenIme(adb);
  await imeCommand(adb, `ime enable ${UNICODE_IME}`);
  try {
    await imeCommand(adb, `ime set ${UNICODE_IME}`);
    // the phone's own keyboard would type the UTF-7 letters themselves into the field
    const now = await chosenIme(adb);
    if (now !== UNICODE_IME) throw new UnicodeImeError(`ime set ${UNICODE_IME} left ${now ?? 'no keyboard'} chosen`);
    return await type();
  } finally {
    const back = await keyboardToPutBack(adb, previous);
    // quoted: a class name may hold a `$` (an inner class)
    if (back) await imeCommand(adb, `ime set '${back}'`);
  }
}

const IME_ID = /^[\w.]+\/[\w.$]+$/;

/** The input method the phone's settings name; null when none is. */
async function chosenIme(adb: AdbDevice): Promise<string | null> {
  const id = (await adb.shell('settings get secure default_input_method')).trim();
  return IME_ID.test(id) ? id : null;
}

/**
 * The keyboard the phone had. When it had none, or had the Unicode IME itself (left by a host that
 * died mid-text), the first other enabled one: the Unicode IME shows no keys, so a person using the
 * phone after would have no keyboard.
 */
async function keyboardToPutBack(adb: AdbDevice, previous: string | null): Promise<string | null> {
  if (previous !== null && previous !== UNICODE_IME) return previous;
  const enabled = (await adb.shell('ime list -s')).split('\n').map((l) => l.trim());
  return enabled.find((id) => IME_ID.test(id) && id !== UNICODE_IME) ?? null;
}

async function imeCommand(adb: AdbDevice, command: string): Promise<void> {
  const out = await adb.shell(command);
  if (/unknown|error|exception|cannot|not found/i.test(out))
    throw new UnicodeImeError(`${command}: ${out.trim().slice(0, 200)}`);
}
