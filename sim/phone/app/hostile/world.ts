import type { Goods } from '../../catalog/schema';
import type { Faults } from '../../faults';
import type { Page } from '../model';
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
}

/**
 * When the app interrupts (sim/phone/SCREENS.md "The hostile world"): the moment the settled
 * screen is at, the built-in page a `page_on` fault puts in its place, the overlays due.
 */
export class HostileWorld {
  readonly overlays = new OverlayBook();
  /** The page the submit tap led to: the `after_submit` moment lasts while it is on top. */
  submitPage: Page | null = null;
  private pagesShown = 0;
  /** A sticky built-in page every app screen turns into until the faults change. */
  private blocking: BuiltinPage | null = null;

  constructor(private readonly app: WorldHost) {}

  reset(): void {
    this.submitPage = null;
    this.overlays.set([]);
  }

  /** New faults: the page count starts again and sticky pages leave the back stack. */
  resetFaults(): void {
    this.pagesShown = 0;
    this.blocking = null;
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
      stack.push(this.builtin(due, g?.title ?? '', true));
    }
    this.overlays.onDump(this.moments(), this.app.top(), (page) => this.app.stack.includes(page as Page));
  }

  /** A built-in page; one a fault put up is sticky (network_error excepted). */
  builtin(name: BuiltinPage, title: string, byFault: boolean): Page {
    const sticky = byFault && name !== 'network_error';
    if (sticky) this.blocking = name;
    return { kind: 'builtin', name, title, sticky };
  }

  /** While a sticky page is in effect every way into the app lands on it again. */
  showBlocking(): boolean {
    const name = this.blocking;
    if (!name) return false;
    const app = this.app;
    app.navigate(() => {
      if (!isSticky(app.top())) app.stack.push(this.builtin(name, '', true));
    }, app.defaultLoadingDumps());
    return true;
  }
}

export const isSticky = (p: Page): boolean => p.kind === 'builtin' && p.sticky;
