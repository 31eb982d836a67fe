import { z } from 'zod';

/**
 * What a person at the live screen may do to a phone: one tap, long press, swipe, key or piece of
 * text at a time. One schema for the browser that sends it, the admin that relays it and the phone
 * host that plays it over ADB. Coordinates are the phone's own pixels (what `wm size` says).
 */

/** Android key codes (`input keyevent`) of the three navigation keys a person may press. */
export const PHONE_KEYS = { back: 4, home: 3, recents: 187 } as const;
type PhoneKey = keyof typeof PHONE_KEYS;

const LONG_PRESS_DEFAULT_MS = 800;
const LONG_PRESS_MIN_MS = 300;
const LONG_PRESS_MAX_MS = 5_000;
/** a slider challenge needs a slow drag, so a swipe may take seconds */
const SWIPE_MIN_MS = 50;
const SWIPE_MAX_MS = 10_000;
/** UTF-16 units, as zod counts */
const PHONE_TEXT_MAX = 500;

/**
 * C0 controls (newline and tab included), DEL and C1 controls: `input text` and the IME would turn
 * them into key presses (a newline submits a form), which a person must ask for as a key.
 */
function hasControlChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

const coordinate = z.number().int().min(0);

const tap = z.object({ kind: z.literal('tap'), x: coordinate, y: coordinate }).strict();

const longPress = z
  .object({
    kind: z.literal('long_press'),
    x: coordinate,
    y: coordinate,
    ms: z.number().int().min(LONG_PRESS_MIN_MS).max(LONG_PRESS_MAX_MS).default(LONG_PRESS_DEFAULT_MS),
  })
  .strict();

const swipe = z
  .object({
    kind: z.literal('swipe'),
    x1: coordinate,
    y1: coordinate,
    x2: coordinate,
    y2: coordinate,
    ms: z.number().int().min(SWIPE_MIN_MS).max(SWIPE_MAX_MS),
  })
  .strict();

const key = z
  .object({ kind: z.literal('key'), key: z.enum(Object.keys(PHONE_KEYS) as [PhoneKey, ...PhoneKey[]]) })
  .strict();

const text = z
  .object({
    kind: z.literal('text'),
    text: z
      .string()
      .min(1)
      .max(PHONE_TEXT_MAX)
      .refine((s) => !hasControlChar(s), { message: 'text may not hold control characters (newlines included)' }),
  })
  .strict();

export const phoneInputSchema = z.discriminatedUnion('kind', [tap, longPress, swipe, key, text]);
/** as played (a long press always has its duration) */
export type PhoneInput = z.infer<typeof phoneInputSchema>;

/**
 * The first coordinate of `input` that lies off a screen of this size (`'x'`, `'y2'`…), or null
 * when every point is on it. A screen of width w has columns 0..w-1.
 */
export function inputOutsideScreen(input: PhoneInput, screen: { width: number; height: number }): string | null {
  const points: [string, number, 'width' | 'height'][] = [];
  if (input.kind === 'tap' || input.kind === 'long_press')
    points.push(['x', input.x, 'width'], ['y', input.y, 'height']);
  else if (input.kind === 'swipe')
    points.push(
      ['x1', input.x1, 'width'],
      ['y1', input.y1, 'height'],
      ['x2', input.x2, 'width'],
      ['y2', input.y2, 'height'],
    );
  for (const [field, value, side] of points) if (value < 0 || value >= screen[side]) return field;
  return null;
}

/** What a log line or the audit may keep of an input: its kind and where, never what was typed. */
export function describeInput(input: PhoneInput): Record<string, unknown> {
  return input.kind === 'text' ? { kind: 'text', length: [...input.text].length } : { ...input };
}
