import type { BuiltinPage } from './hostile/schema';
import type { Selection } from './pricing';

/**
 * A challenge a person can answer (sim/phone/SCREENS.md "Solving a challenge"). Its answer is
 * fixed when the page shows, so every read of the screen and of the control API agrees.
 */
export interface Challenge {
  /** Slider pages: where the thumb's centre must be dragged to (the gap's x, the thumb's y). */
  dragTo?: readonly [number, number];
  /** The SMS and login pages: the code the account's phone receives. */
  code?: string;
  /** The code field: what it holds and whether a tap gave it the focus. */
  typed: string;
  focused: boolean;
  /** The last 确定/登录 had a wrong code: the page says so until something is typed. */
  wrong: boolean;
  /** login: 手机登录 was tapped, the phone-number form is up. */
  phoneForm: boolean;
  /** The page the challenge stands in front of: on screen again once it is solved. */
  then?: Page;
  /** It came at 提交订单 (`then` is the panel): once solved, the submission goes through. */
  resubmit?: boolean;
}

/** The screens the app model can stack; its own module so the hostile world can name them without importing the model. */
export type Page =
  | { kind: 'launcher' }
  | { kind: 'home' }
  | { kind: 'goods'; goodsId: string }
  | { kind: 'panel'; goodsId: string; sel: Selection; qty: number; scroll: 'top' | 'end'; fullDumps: number }
  | { kind: 'cashier'; orderNo: string; totalCent: number }
  | { kind: 'payment'; orderNo: string; totalCent: number }
  | { kind: 'captcha'; challenge: Challenge }
  | { kind: 'orders'; type: number; scroll: 'top' | 'end' }
  | { kind: 'hang' }
  /** `sticky`: shown by a `page_on` fault, it stays until the fault is cleared or the page is solved (network_error excepted). */
  | { kind: 'builtin'; name: BuiltinPage; title: string; sticky: boolean; challenge?: Challenge };
