import type { PhoneInput } from './phone-input';

/**
 * The admin's live screen as the browser reads it: from the operator's pointer on the phone's
 * picture to what the phone plays (./phone-input.ts), and how the picture's path and rate are
 * named. Pure: the canvas hands in where it was pressed and released, in its own CSS pixels, and
 * gets back one input in the phone's pixels.
 */

/** A press that moved further than this (CSS pixels, as the operator's hand moved) is a drag. */
const DRAG_SLOP_PX = 10;
/** Held at least this long without moving: a long press, as on the phone itself. */
const LONG_PRESS_FROM_MS = 500;
// The admin's bounds (domain/phone-input.ts): a long press outside them would be refused whole.
const LONG_PRESS_MIN_MS = 300;
const LONG_PRESS_MAX_MS = 5_000;
const SWIPE_MIN_MS = 50;
const SWIPE_MAX_MS = 10_000;

export interface Size {
  width: number;
  height: number;
}

/** One end of a press: where on the canvas (CSS pixels from its top left) and when (ms). */
export interface PointerMark {
  x: number;
  y: number;
  at: number;
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/**
 * The phone pixel under a point of the canvas shown at `shown` CSS pixels: the canvas keeps the
 * phone's aspect, so each axis scales on its own. A point off the canvas (the pointer left it
 * while pressed) lands on the nearest edge.
 */
export function toPhonePoint(x: number, y: number, shown: Size, phone: Size): { x: number; y: number } {
  const px = shown.width > 0 ? Math.round((x / shown.width) * phone.width) : 0;
  const py = shown.height > 0 ? Math.round((y / shown.height) * phone.height) : 0;
  return { x: clamp(px, 0, phone.width - 1), y: clamp(py, 0, phone.height - 1) };
}

/**
 * What a press and its release mean: a tap or a long press (by how long it was held) when the
 * pointer stayed put, else a swipe that takes as long as the drag did — a slider only takes a
 * drag as slow as a hand's.
 */
export function gestureOf(down: PointerMark, up: PointerMark, shown: Size, phone: Size): PhoneInput {
  const held = Math.max(0, Math.round(up.at - down.at));
  const from = toPhonePoint(down.x, down.y, shown, phone);
  if (Math.hypot(up.x - down.x, up.y - down.y) <= DRAG_SLOP_PX) {
    if (held < LONG_PRESS_FROM_MS) return { kind: 'tap', ...from };
    return { kind: 'long_press', ...from, ms: clamp(held, LONG_PRESS_MIN_MS, LONG_PRESS_MAX_MS) };
  }
  const to = toPhonePoint(up.x, up.y, shown, phone);
  return { kind: 'swipe', x1: from.x, y1: from.y, x2: to.x, y2: to.y, ms: clamp(held, SWIPE_MIN_MS, SWIPE_MAX_MS) };
}

/** How the phone's picture reaches the page, as the operator reads it. */
const SCREEN_PATH_ZH: Readonly<Record<string, string>> = {
  minicap: '高速画面',
  screencap: '逐帧截图',
  scrcpy: '视频流',
};

export function screenPathZh(path: string): string {
  return SCREEN_PATH_ZH[path] ?? '画面';
}

/** The frames drawn in the last second, from their draw times (ms); the ones older are dropped. */
export function framesInLastSecond(drawnAt: number[], now: number): number {
  while (drawnAt.length > 0 && (drawnAt[0] as number) <= now - 1_000) drawnAt.shift();
  return drawnAt.length;
}
