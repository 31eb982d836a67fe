import type { AdbDevice } from '../../device-worker/adb/adb-device';
import { isInjectEventsDenied } from '../../device-worker/adb/output';
import { inputOutsideScreen, PHONE_KEYS, type PhoneInput } from '../../domain/phone-input';
import { withUnicodeIme, type UnicodeImeOptions } from './unicode-ime';
import { encodeModifiedUtf7 } from './utf7';

/** An input this phone cannot take as it stands (a point off its screen). Nothing was sent. */
export class PhoneInputRefused extends Error {
  override readonly name = 'PhoneInputRefused';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The phone did not take an input it was sent (its message never holds the text). */
export class PhoneInputFailed extends Error {
  override readonly name = 'PhoneInputFailed';
}

/**
 * Plays one input a person made at the live screen on the phone, over ADB (`input …`). The input
 * was parsed by domain/phone-input.ts; here it is checked against this phone's screen size.
 * Text that is printable ASCII goes through `input text`; any other text through Appium's Unicode
 * IME (./unicode-ime.ts). Errors never carry the text.
 */
export async function sendInput(
  adb: AdbDevice,
  input: PhoneInput,
  screen: { width: number; height: number },
  opts: UnicodeImeOptions = {},
): Promise<void> {
  const off = inputOutsideScreen(input, screen);
  if (off !== null)
    throw new PhoneInputRefused(off, `${input.kind}: ${off} lies off the ${screen.width}x${screen.height} screen`);
  switch (input.kind) {
    case 'tap':
      return adb.tap(input.x, input.y);
    case 'long_press':
      return adb.swipe(input.x, input.y, input.x, input.y, input.ms);
    case 'swipe':
      return adb.swipe(input.x1, input.y1, input.x2, input.y2, input.ms);
    case 'key':
      return adb.keyevent(PHONE_KEYS[input.key]);
    case 'text':
      if (isPrintableAscii(input.text)) return typeAscii(adb, input.text);
      return withUnicodeIme(adb, () => typeAscii(adb, encodeModifiedUtf7(input.text)), opts);
  }
}

function isPrintableAscii(text: string): boolean {
  return /^[\x20-\x7e]+$/.test(text);
}

/**
 * `input text` of printable ASCII. Android's `input text` reads `%s` as a space and nothing else
 * specially, so a space is sent as `%s` and a `%s` the person typed is cut after its `%` into two
 * commands; each one's argument is single-quoted for the phone's shell.
 */
async function typeAscii(adb: AdbDevice, text: string): Promise<void> {
  for (const part of inputTextCommands(text)) {
    const out = await adb.shell(part).catch((err: unknown) => {
      throw withoutText(err, part);
    });
    if (isInjectEventsDenied(out))
      throw new PhoneInputFailed(
        'the phone refused injected input (SecurityException … INJECT_EVENTS); enable USB debugging (Security settings) on the phone',
      );
    // the answer is not quoted: a usage line would repeat the text
    const failure = /\b([\w.]*(?:Exception|Error))\b/.exec(out);
    if (failure) throw new PhoneInputFailed(`input text failed (${failure[1]})`);
  }
}

/** An ADB error names the command it ran: the text is cut out of its message, the error kept (its code says what to do). */
function withoutText(err: unknown, command: string): unknown {
  if (err instanceof Error) {
    err.message = err.message.split(command).join('input text …');
    if (err.stack) err.stack = err.stack.split(command).join('input text …');
  }
  return err;
}

/** The `input text …` commands that type `text` (printable ASCII), in order. */
export function inputTextCommands(text: string): string[] {
  const pieces = text.split(/(?<=%)(?=s)/);
  return pieces.map((p) => `input text ${shellQuote(p.replace(/ /g, '%s'))}`);
}

/** One word for a POSIX shell: single quotes, a quote inside written `'\''`. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
