import type { BuiltinPage } from './hostile/schema';
import type { Selection } from './pricing';

/** The screens the app model can stack; its own module so the hostile world can name them without importing the model. */
export type Page =
  | { kind: 'launcher' }
  | { kind: 'home' }
  | { kind: 'goods'; goodsId: string }
  | { kind: 'panel'; goodsId: string; sel: Selection; qty: number; scroll: 'top' | 'end'; fullDumps: number }
  | { kind: 'cashier'; orderNo: string; totalCent: number }
  | { kind: 'payment'; orderNo: string; totalCent: number }
  | { kind: 'captcha' }
  | { kind: 'orders'; type: number; scroll: 'top' | 'end' }
  | { kind: 'hang' }
  /** `sticky`: shown by a `page_on` fault, it stays until the fault is cleared (network_error excepted). */
  | { kind: 'builtin'; name: BuiltinPage; title: string; sticky: boolean };
