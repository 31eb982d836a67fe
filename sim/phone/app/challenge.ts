import type { BuiltinPage } from './hostile/schema';
import type { Rect, TapAction } from './node';
import type { Challenge, Page } from './page';

/** The slider pages' thumbs: a drag that solves one starts on it (sim/phone/SCREENS.md "Solving a challenge"). */
export const SLIDER_THUMB = {
  captcha: [120, 1060, 280, 1180],
  risk_slider: [120, 1100, 260, 1220],
} as const satisfies Record<string, Rect>;
type Slider = keyof typeof SLIDER_THUMB;

/** How far from the gap a drag may end and still fit the piece in. */
const DRAG_TOLERANCE_PX = 30;
const CODE_LENGTH = 6;
/** The pages a person can answer from a phone; risk_face wants the account holder's face. */
const ANSWERABLE = new Set<BuiltinPage>(['login', 'risk_slider', 'risk_sms']);

export type ChallengeStep = Extract<TapAction, { kind: 'challenge' }>['step'];

/** One deterministic draw in [0, 1) for a seed and a showing: the same showing reads the same answer. */
function draw(seed: number, n: number): number {
  let t = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(n + 1, 0x85ebca6b)) >>> 0;
  t = Math.imul(t ^ (t >>> 16), 0x7feb352d);
  t = Math.imul(t ^ (t >>> 15), 0x846ca68b);
  return ((t ^ (t >>> 16)) >>> 0) / 4294967296;
}

let apps = 0;

/**
 * Draws each showing's answer: from the fault `seed` when one is set, else from the app's own
 * seed, and the count of challenges shown since the last reset or change of faults.
 */
export class ChallengeBook {
  private readonly ownSeed = ++apps * 7919;
  private shown = 0;

  reset(): void {
    this.shown = 0;
  }

  /** A fresh challenge for `page`, or undefined for a page nobody answers remotely. */
  make(page: 'captcha', seed: number | undefined, then?: Page): Challenge;
  make(page: BuiltinPage, seed: number | undefined, then?: Page): Challenge | undefined;
  make(page: Slider | BuiltinPage, seed: number | undefined, then?: Page): Challenge | undefined {
    if (page !== 'captcha' && !ANSWERABLE.has(page)) return undefined;
    const u = draw(seed ?? this.ownSeed, this.shown++);
    const ch: Challenge = { typed: '', focused: false, wrong: false, phoneForm: false, ...(then ? { then } : {}) };
    if (page === 'captcha' || page === 'risk_slider') {
      const [l, t, r, b] = SLIDER_THUMB[page];
      const cx = (l + r) / 2;
      // The gap lies well right of the thumb and leaves the thumb room on the track (right edge 960).
      const from = cx + 220;
      const to = 960 - (r - l) / 2;
      ch.dragTo = [Math.floor(from + u * (to - from)), (t + b) / 2];
    } else {
      ch.code = String(Math.floor(u * 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
    }
    return ch;
  }
}

export function challengeOf(p: Page): Challenge | undefined {
  return p.kind === 'captcha' || p.kind === 'builtin' ? p.challenge : undefined;
}

/** What `GET /devices/:serial/challenge` answers for the page on top. */
export function challengeView(
  p: Page,
): { page: string; drag_to: [number, number] } | { page: string; code: string } | null {
  const ch = challengeOf(p);
  if (!ch) return null;
  const page = p.kind === 'builtin' ? p.name : 'captcha';
  if (ch.dragTo) return { page, drag_to: [ch.dragTo[0], ch.dragTo[1]] };
  return ch.code !== undefined ? { page, code: ch.code } : null;
}

/** A drag that starts on the slider's thumb and ends at the gap. */
export function dragSolves(p: Page, x1: number, y1: number, x2: number, y2: number): boolean {
  const ch = challengeOf(p);
  const slider: Slider | null =
    p.kind === 'captcha' ? 'captcha' : p.kind === 'builtin' && p.name === 'risk_slider' ? 'risk_slider' : null;
  if (!ch?.dragTo || !slider) return false;
  const [l, t, r, b] = SLIDER_THUMB[slider];
  const onThumb = x1 >= l && x1 < r && y1 >= t && y1 < b;
  return onThumb && Math.hypot(x2 - ch.dragTo[0], y2 - ch.dragTo[1]) <= DRAG_TOLERANCE_PX;
}

/** A tap on a challenge's control; true when it answered the challenge right. */
export function answerTap(ch: Challenge, step: ChallengeStep): boolean {
  if (step === 'phone_login') ch.phoneForm = true;
  else if (step === 'focus') ch.focused = true;
  else {
    if (ch.code !== undefined && ch.typed === ch.code) return true;
    // The app clears a wrong code, so the next try starts from an empty field.
    ch.wrong = true;
    ch.typed = '';
  }
  return false;
}

/** `input text` into the focused code field: a number field, at most six digits. */
export function typeInto(ch: Challenge, text: string): void {
  if (!ch.focused) return;
  ch.typed = (ch.typed + text.replace(/[^0-9]/g, '')).slice(0, CODE_LENGTH);
  ch.wrong = false;
}
