import type { Readable } from 'node:stream';
import { AdbDevice } from '../../device-worker/adb/adb-device';
import { DeviceError } from '../../device-worker/errors';
import type { PhoneInput } from '../../domain/phone-input';
import { parse } from '../../sim/phone/shell/parser';
import { inputTextCommands, PhoneInputFailed, PhoneInputRefused, sendInput, shellQuote } from './send';
import { settingsApk, UNICODE_IME, UnicodeImeError, type SettingsApk } from './unicode-ime';

/**
 * What sendInput sends, command by command, to a phone that answers as told: no ADB server is
 * reached (every command goes through `shell`, which this fake answers).
 */
const SCREEN = { width: 1080, height: 2376 };
const LATIN = 'com.android.inputmethod.latin/.LatinIME';
const APK: SettingsApk = { version: '8.0.10', file: __filename };

class FakeAdb extends AdbDevice {
  sent: string[] = [];
  pushes: string[] = [];
  constructor(private readonly answer: (cmd: string) => string = () => '') {
    super({ host: '127.0.0.1', port: 1, serial: 'fake-1' });
  }
  override async shell(command: string): Promise<string> {
    this.sent.push(command);
    return this.answer(command);
  }
  override async push(contents: Readable, remotePath: string): Promise<void> {
    contents.destroy();
    this.pushes.push(remotePath);
  }
}

/** A phone with the settings app at `version` and `keyboard` chosen (`null`: none). */
function phone(
  version: string | null,
  over: (cmd: string) => string | undefined = () => undefined,
  keyboard: string = LATIN,
): FakeAdb {
  let chosen = keyboard;
  return new FakeAdb((cmd) => {
    const said = over(cmd);
    if (said !== undefined) return said;
    if (cmd.startsWith('dumpsys package'))
      return version ? `Packages:\n  Package [io.appium.settings] (1):\n    versionName=${version}\n` : '';
    if (cmd === 'settings get secure default_input_method') return `${chosen}\n`;
    if (cmd === 'ime list -s') return `${UNICODE_IME}\n${LATIN}\n`;
    if (cmd.startsWith('ime set ')) chosen = cmd.slice('ime set '.length).replace(/'/g, '');
    if (cmd.startsWith('pm install')) return 'Success\n';
    return '';
  });
}

const send = (adb: AdbDevice, input: PhoneInput) => sendInput(adb, input, SCREEN, { apk: () => APK });

/** What Android's `input text` types for these commands: the shell's words joined, `%s` read as a space. */
function typed(commands: string[]): string {
  return commands
    .map((c) => {
      const argv = parse(c)[0]?.pipeline[0]?.argv ?? [];
      expect(argv.slice(0, 2)).toEqual(['input', 'text']);
      return argv.slice(2).join(' ').replace(/%s/g, ' ');
    })
    .join('');
}

describe('sendInput: touches and keys', () => {
  it.each<[PhoneInput, string]>([
    [{ kind: 'tap', x: 10, y: 20 }, 'input tap 10 20'],
    [{ kind: 'long_press', x: 5, y: 6, ms: 800 }, 'input swipe 5 6 5 6 800'],
    [{ kind: 'swipe', x1: 100, y1: 2000, x2: 900, y2: 2000, ms: 2500 }, 'input swipe 100 2000 900 2000 2500'],
    [{ kind: 'key', key: 'back' }, 'input keyevent 4'],
    [{ kind: 'key', key: 'home' }, 'input keyevent 3'],
    [{ kind: 'key', key: 'recents' }, 'input keyevent 187'],
  ])('%j → %s', async (input, command) => {
    const adb = phone('8.0.10');
    await send(adb, input);
    expect(adb.sent).toEqual([command]);
  });

  it('refuses a point off the screen, naming it, and sends nothing', async () => {
    const adb = phone('8.0.10');
    const input: PhoneInput = { kind: 'swipe', x1: 0, y1: 0, x2: 10, y2: 2376, ms: 300 };
    await expect(send(adb, input)).rejects.toMatchObject({ name: 'PhoneInputRefused', field: 'y2' });
    await expect(send(adb, { kind: 'tap', x: 1080, y: 0 })).rejects.toBeInstanceOf(PhoneInputRefused);
    expect(adb.sent).toEqual([]);
  });
});

describe('sendInput: ASCII text', () => {
  it('sends a space as %s, single-quoted for the shell', async () => {
    const adb = phone('8.0.10');
    await send(adb, { kind: 'text', text: "it's 5 $HOME; `x` & y" });
    expect(adb.sent).toEqual([`input text 'it'\\''s%s5%s$HOME;%s\`x\`%s&%sy'`]);
    expect(typed(adb.sent)).toBe("it's 5 $HOME; `x` & y");
  });

  it('cuts a typed %s after its % so Android does not read it as a space', () => {
    expect(inputTextCommands('50%sale')).toEqual([`input text '50%'`, `input text 'sale'`]);
    expect(typed(inputTextCommands('a %s b%%s'))).toBe('a %s b%%s');
  });

  it('types every printable ASCII character as itself, through a shell', () => {
    let all = '';
    for (let c = 0x20; c <= 0x7e; c++) all += String.fromCharCode(c);
    for (const text of [all, `${all}%s${all}`, "''", '%', 's%', ' %s ', '\\"\'\\'])
      expect(typed(inputTextCommands(text))).toBe(text);
    expect(parse(`echo ${shellQuote("a'b")}`)[0]?.pipeline[0]?.argv).toEqual(['echo', "a'b"]);
  });

  it('says a refused input without the text', async () => {
    const adb = phone('8.0.10', (cmd) =>
      cmd.startsWith('input text') ? `java.lang.IllegalArgumentException: bad 'secret word'\n` : undefined,
    );
    const err = await send(adb, { kind: 'text', text: 'secret word' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PhoneInputFailed);
    expect((err as Error).message).not.toContain('secret');
  });

  it('cuts the text out of an ADB error, keeping its code', async () => {
    const adb = phone('8.0.10');
    adb.shell = async (command: string) => {
      throw new DeviceError('ADB_TIMEOUT', `${command} took longer than 10000 ms`);
    };
    const err = await send(adb, { kind: 'text', text: 'secret' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ADB_TIMEOUT', message: 'input text … took longer than 10000 ms' });
    expect((err as Error).stack).not.toContain('secret');
  });
});

describe('sendInput: other text, through the Unicode IME', () => {
  it('finds the settings app the npm package ships', () => {
    const apk = settingsApk();
    expect(apk.version).toBe('8.0.10');
    expect(apk.file).toMatch(/io\.appium\.settings\/apks\/settings_apk-debug\.apk$/);
  });

  it('switches to the IME, types modified UTF-7 and puts the keyboard back', async () => {
    const adb = phone('8.0.10');
    await send(adb, { kind: 'text', text: '中文 a&b' });
    expect(adb.sent).toEqual([
      'dumpsys package io.appium.settings',
      'settings get secure default_input_method',
      `ime enable ${UNICODE_IME}`,
      `ime set ${UNICODE_IME}`,
      'settings get secure default_input_method',
      `input text '&Ti1lhw-%sa&-b'`,
      `ime set '${LATIN}'`,
    ]);
    expect(adb.pushes).toEqual([]);
  });

  it('installs the settings app first when the phone has another version or none', async () => {
    for (const version of [null, '5.0.0']) {
      const adb = phone(version);
      await send(adb, { kind: 'text', text: '好' });
      expect(adb.pushes).toEqual(['/data/local/tmp/send.test.ts']);
      expect(adb.sent.slice(1, 3)).toEqual([
        'pm install -r -g /data/local/tmp/send.test.ts',
        'rm -f /data/local/tmp/send.test.ts',
      ]);
      expect(adb.sent).toContain(`ime set ${UNICODE_IME}`);
    }
  });

  it('touches no keyboard when the install is refused', async () => {
    const adb = phone(null, (cmd) =>
      cmd.startsWith('pm install') ? 'Failure [INSTALL_FAILED_USER_RESTRICTED]\n' : undefined,
    );
    await expect(send(adb, { kind: 'text', text: '好' })).rejects.toThrow(UnicodeImeError);
    expect(adb.sent.some((c) => c.startsWith('ime'))).toBe(false);
    expect(adb.sent).toContain('rm -f /data/local/tmp/send.test.ts');
  });

  it('puts the keyboard back when typing failed', async () => {
    const adb = phone('8.0.10', (cmd) =>
      cmd.startsWith('input text') ? 'java.lang.SecurityException: INJECT_EVENTS\n' : undefined,
    );
    await expect(send(adb, { kind: 'text', text: '好' })).rejects.toThrow(/INJECT_EVENTS/);
    expect(adb.sent[adb.sent.length - 1]).toBe(`ime set '${LATIN}'`);
  });

  it('refuses an IME the phone does not know, and types nothing', async () => {
    const adb = phone('8.0.10', (cmd) =>
      cmd.startsWith('ime enable') ? `Unknown input method ${UNICODE_IME} cannot be enabled for user #0\n` : undefined,
    );
    await expect(send(adb, { kind: 'text', text: '好' })).rejects.toThrow(UnicodeImeError);
    expect(adb.sent.some((c) => c.startsWith('input text'))).toBe(false);
  });

  it('types two texts one after the other, each putting the same keyboard back', async () => {
    const adb = phone('8.0.10');
    await Promise.all([send(adb, { kind: 'text', text: '一' }), send(adb, { kind: 'text', text: '二' })]);
    expect(adb.sent.filter((c) => c === `ime set '${LATIN}'`)).toHaveLength(2);
    expect(adb.sent[adb.sent.length - 1]).toBe(`ime set '${LATIN}'`);
  });

  it.each([
    ['none', 'null'],
    ['the Unicode IME left by a host that died', UNICODE_IME],
  ])('gives a phone that had %s chosen its first other keyboard after', async (_why, keyboard) => {
    const adb = phone('8.0.10', () => undefined, keyboard);
    await send(adb, { kind: 'text', text: '好' });
    expect(adb.sent.slice(-2)).toEqual(['ime list -s', `ime set '${LATIN}'`]);
  });

  it('types nothing when the IME did not become the keyboard', async () => {
    const adb = phone('8.0.10', (cmd) => (cmd === `ime set ${UNICODE_IME}` ? 'Input method selected\n' : undefined));
    // the fake's `ime set` answer above leaves the Latin keyboard chosen
    await expect(send(adb, { kind: 'text', text: '好' })).rejects.toThrow(/left com\.android\.inputmethod\.latin/);
    expect(adb.sent.some((c) => c.startsWith('input text'))).toBe(false);
  });
});
