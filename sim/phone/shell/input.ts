import type { Phone } from '../phone';
import { currentIme, UNICODE_IME } from './ime';
import { err, out, type CmdOutput, type Command } from './output';
import { decodeModifiedUtf7 } from './utf7';

const PDD_PACKAGE = 'com.xunmeng.pinduoduo';

const KEY_BACK = new Set(['4', 'KEYCODE_BACK']);
const KEY_HOME = new Set(['3', 'KEYCODE_HOME']);
const KEY_WAKEUP = new Set(['224', 'KEYCODE_WAKEUP']);
const KEY_SLEEP = new Set(['223', 'KEYCODE_SLEEP']);
const KEY_POWER = new Set(['26', 'KEYCODE_POWER']);

/** The input sources `input` takes before its command; each injects the same events here. */
const SOURCES = new Set([
  'keyboard',
  'mouse',
  'joystick',
  'touchnavigation',
  'touchpad',
  'trackball',
  'dpad',
  'stylus',
  'gamepad',
  'touchscreen',
  'rotaryencoder',
]);

/** Android's touch slop (8 dp at density 2.75): a press that moves less never scrolls. */
const TOUCH_SLOP_PX = 22;
/** ViewConfiguration's long-press timeout: a press held this long is no click. */
const LONG_PRESS_MS = 500;
/** `input swipe` without a duration. */
const DEFAULT_SWIPE_MS = 300;

/** Power keys move the display; waking a phone that locked itself shows the keyguard, never the app. */
function powerKey(phone: Phone, code: string): boolean {
  const h = phone.health;
  const wake = KEY_WAKEUP.has(code) || (KEY_POWER.has(code) && h.screen === 'off');
  const sleep = KEY_SLEEP.has(code) || (KEY_POWER.has(code) && h.screen !== 'off');
  if (wake && h.screen === 'off') phone.setHealth({ screen: 'locked' });
  else if (sleep) phone.setHealth({ screen: 'off' });
  return wake || sleep;
}

function inputUsage(cmd: string): CmdOutput {
  return err(
    `Error: Invalid arguments for command: ${cmd}\nUsage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n`,
  );
}

/**
 * A swipe as the touchscreen feels it: one that moves scrolls or drags; one that stays within
 * the touch slop is a press, a tap when let go before the long-press timeout, else a long press
 * (no node of the app takes long clicks, so it does nothing).
 */
function swipe(phone: Phone, nums: number[]): void {
  const [x1, y1, x2, y2, ms = DEFAULT_SWIPE_MS] = nums as [number, number, number, number, number?];
  if (Math.hypot(x2 - x1, y2 - y1) <= TOUCH_SLOP_PX) {
    if (ms < LONG_PRESS_MS) phone.tap(Math.round(x1), Math.round(y1));
    return;
  }
  // A swipe on the lock screen does not unlock it here: nothing over ADB unlocks a phone.
  if (!phone.systemTree()) phone.app.swipe(x1, y1, x2, y2);
}

function keys(phone: Phone, codes: string[]): void {
  for (const c of codes) {
    if (powerKey(phone, c)) continue;
    // The keyguard or a dark screen swallows every other key.
    if (phone.systemTree()) continue;
    if (KEY_BACK.has(c)) phone.app.back();
    else if (KEY_HOME.has(c)) phone.app.forceStop(PDD_PACKAGE);
    // any other key (recents 187, enter …) leaves the app where it is
  }
}

/** `input [<source>] [-d DISPLAY_ID] tap|swipe|keyevent|text …` */
export const input: Command = async (phone, argv) => {
  let args = argv;
  if (args[0] !== undefined && SOURCES.has(args[0])) args = args.slice(1);
  if (args[0] === '-d') args = args.slice(2);
  const [cmd, ...rest] = args;
  const nums = rest.map((a) => Number(a));
  const ints = nums.every((n) => Number.isFinite(n));
  switch (cmd) {
    case 'tap':
      if (rest.length !== 2 || !ints) return inputUsage('tap');
      phone.tap(Math.round(nums[0] as number), Math.round(nums[1] as number));
      break;
    case 'swipe':
    case 'draganddrop':
      if ((rest.length !== 4 && rest.length !== 5) || !ints) return inputUsage(cmd);
      swipe(phone, nums);
      break;
    case 'keyevent': {
      const codes = rest.filter((a) => !a.startsWith('--'));
      if (codes.length === 0) return inputUsage('keyevent');
      keys(phone, codes);
      break;
    }
    case 'text': {
      if (rest.length === 0) return inputUsage('text');
      // `input text` spells a space `%s`; the Unicode IME then reads the keys as modified UTF-7.
      const keys = rest.join(' ').replace(/%s/g, ' ');
      const ime = currentIme(phone);
      phone.type(ime === UNICODE_IME ? decodeModifiedUtf7(keys) : keys, ime);
      break;
    }
    default:
      return err(
        `Error: Unknown command: ${cmd ?? ''}\nUsage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n`,
      );
  }
  await phone.delay('tap');
  return out('');
};
