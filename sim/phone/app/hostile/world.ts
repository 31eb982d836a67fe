import type { Goods } from '../../catalog/schema';
import type { Faults } from '../../faults';
import { answerTap, ChallengeBook, challengeOf, dragSolves, typeInto, type ChallengeStep } from '../challenge';
import type { Page } from '../page';
import { isComplete } from '../pricing';
import { OverlayBook } from './overlays';
import { MOMENTS, type BuiltinPage, type Moment } from './schema';

/** What the hostile world needs of the app model. */
interface WorldHost {
  stack: Page[];
  top(): Page;
  isLoading(): boolean;
  goods(id: string): Goods | undefined;
  faults(): Faults;
  navigate(mutate: () => void, loadingDumps?: number): void;
  defaultLoadingDumps(): number;
  /** A submission a challenge held up goes through now it is solved. */
  resubmit(panel: Page): void;
}

/**
 * When the app interrupts (sim/phone/SCREENS.md "The hostile world"): the moment the settled
 * screen is at, the built-in page a `page_on` fault puts in its place, the overlays due.
 */
export class HostileWorld {
  readonly overlays = new OverlayBook();
  private readonly challenges = new ChallengeBook();
  /** The page the submit tap led to: the `after_submit` moment lasts while it is on top. */
  submitPage: Page | null = null;
  private pagesShown = 0;
  /** A sticky built-in page every app screen turns into until the faults change. */
  private blocking: BuiltinPage | null = null;

  constructor(private readonly app: WorldHost) {}

  reset(): void {
    this.submitPage = null;
    this.overlays.set([]);
    this.challenges.reset();
  }

  /** New faults: the page count starts again and sticky pages leave the back stack. */
  resetFaults(): void {
    this.pagesShown = 0;
    this.blocking = null;
    this.challenges.reset();
    const app = this.app;
    if (!app.stack.some(isSticky)) return;
    app.navigate(() => {
      app.stack = app.stack.filter((p) => !isSticky(p));
      if (app.stack.length === 0) app.stack.push({ kind: 'launcher' });
    });
  }

  /** The moments the settled screen is at right now. */
  moments(): Set<Moment> {
    const active = new Set<Moment>();
    const p = this.app.top();
    if (this.app.isLoading()) return active;
    if (p === this.submitPage) active.add('after_submit');
    if (p.kind === 'goods') active.add('open');
    if (p.kind === 'orders') active.add('orders');
    if (p.kind === 'panel') {
      if (!isComplete(p.sel)) active.add('panel');
      else {
        active.add('final_panel');
        const dims = this.app.goods(p.goodsId)?.dimensions.length ?? 1;
        if (p.scroll === 'end' || dims < 2) active.add('quantity');
      }
    }
    return active;
  }

  /** A fresh dump of a settled screen is when the world strikes: a page in place of it, then overlays. */
  strike(): void {
    const { stack } = this.app;
    const faults = this.app.faults();
    const active = this.moments();
    const due = MOMENTS.map((m) => (active.has(m) ? faults.page_on?.[m] : undefined)).find((x) => x !== undefined);
    if (due && this.pagesShown < (faults.page_times ?? 1)) {
      this.pagesShown += 1;
      const p = stack.pop();
      const g = p && (p.kind === 'goods' || p.kind === 'panel') ? this.app.goods(p.goodsId) : undefined;
      stack.push(this.builtin(due, g?.title ?? '', true, p));
    }
    this.overlays.onDump(this.moments(), this.app.top(), (page) => this.app.stack.includes(page as Page));
  }

  /** A built-in page in front of `then`; one a fault put up is sticky (network_error excepted). */
  builtin(name: BuiltinPage, title: string, byFault: boolean, then?: Page): Page {
    const sticky = byFault && name !== 'network_error';
    if (sticky) this.blocking = name;
    const challenge = this.challenges.make(name, this.app.faults().seed, then);
    return { kind: 'builtin', name, title, sticky, ...(challenge ? { challenge } : {}) };
  }

  /** The captcha page in front of `then`; `resubmit`: it came at 提交订单. */
  captcha(then: Page, resubmit = false): Page {
    const challenge = this.challenges.make('captcha', this.app.faults().seed, then);
    if (resubmit) challenge.resubmit = true;
    return { kind: 'captcha', challenge };
  }

  /** While a sticky page is in effect every way into the app (to `then`) lands on it again. */
  showBlocking(then?: Page): boolean {
    const name = this.blocking;
    if (!name) return false;
    const app = this.app;
    app.navigate(() => {
      if (!isSticky(app.top())) app.stack.push(this.builtin(name, '', true, then));
    }, app.defaultLoadingDumps());
    return true;
  }

  /** `input swipe` on a settled page: true when it was the slider's drag to the gap. */
  slide(x1: number, y1: number, x2: number, y2: number): boolean {
    if (!dragSolves(this.app.top(), x1, y1, x2, y2)) return false;
    this.solve();
    return true;
  }

  /** A tap on a challenge page's control (the code field, 手机登录, 确定/登录). */
  answer(step: ChallengeStep): void {
    const ch = challengeOf(this.app.top());
    if (ch && answerTap(ch, step)) this.solve();
  }

  /** `input text` into the challenge page's focused code field. */
  type(text: string): void {
    const ch = challengeOf(this.app.top());
    if (ch) typeInto(ch, text);
  }

  /** Solved: the page goes (and no longer blocks) and what it stood in front of is back. */
  private solve(): void {
    const app = this.app;
    const p = app.top();
    const ch = challengeOf(p);
    if (!ch) return;
    if (isSticky(p)) this.blocking = null;
    app.navigate(() => {
      app.stack.pop();
      if (ch.then) app.stack.push(ch.then);
      if (app.stack.length === 0) app.stack.push({ kind: 'launcher' });
    });
    if (ch.resubmit && ch.then) app.resubmit(ch.then);
  }
}

export const isSticky = (p: Page): boolean => p.kind === 'builtin' && p.sticky;
