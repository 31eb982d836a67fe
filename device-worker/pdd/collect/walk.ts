import { DeviceError } from '../../errors';
import { structure } from '../match';
import { optionIn, type PanelState } from '../panel-state';
import { tappable } from '../panel-view';
import { readListPrice, readPanelPrice } from '../price';
import type { OpenPanel, PddSession } from '../session';
import { completions, unavailable, type Readings } from './readings';

/**
 * How many rows one collect measures by selecting them when their colour already showed one
 * price: about a dump each (under two seconds on the simulator), so the largest goods still ends
 * well inside the collect's five minutes on a phone. Rows past it carry their colour's price and
 * say so (推测价格); a colour showing a range is split whatever this says, or it has no price.
 */
export const MEASURED_ROWS_MAX = 40;

/**
 * The walk over one goods' spec panel (../collect.ts): each colour (first dimension) is selected
 * once and its price read; then its sizes (and further dimensions) are selected one by one, so
 * each row's price is the one shown with exactly that row selected. A colour showing a range
 * must be split that way; one showing a single price is, while `measuredRowsMax` allows, so the
 * price a cap is drafted from is measured, not carried over. The sizes are revealed by the
 * panel's one profiled swipe and later colours are tapped in that revealed view; a colour
 * scrolled out of it costs a back and a fresh panel.
 */
export class PanelWalk {
  readonly names: string[];
  /** the options of the later dimensions, the same for every colour; null before the first colour showed them */
  laterValues: string[][] | null;
  /** a range was split: the goods is priced per SKU, not per colour */
  perSku: boolean;
  private revealedPanel = -1;
  /** rows measured so far, against `measuredRowsMax` */
  private measured = 0;

  constructor(
    private readonly session: PddSession,
    private panel: OpenPanel,
    readonly readings: Readings,
    private readonly measuredRowsMax = MEASURED_ROWS_MAX,
  ) {
    this.names = panel.names;
    this.laterValues = this.names.length === 1 ? [] : null;
    this.perSku = this.names.length === 1;
  }

  /** Selects `colour` alone (revealing the sizes on a new panel) and reads what it shows. */
  async visitColour(colour: string): Promise<void> {
    const { session, names } = this;
    const colourOnly = [colour, ...names.slice(1).map(() => null)];
    let st: PanelState;
    if (names.length === 1) {
      st = await session.selectOption(this.panel, 0, colour, colourOnly);
    } else {
      const revealed = this.revealedPanel === this.panel.serial;
      const inView = revealed ? optionIn(this.panel.state, 0, colour) : null;
      if (revealed && (!inView || !tappable(inView))) {
        // Scrolled past this colour: the reveal is once per panel, so close and reopen.
        const again = await session.back(true);
        if (!again) throw new DeviceError('UNEXPECTED_SCREEN', 'the goods page did not come back');
        this.panel = await session.openSpecPanel(again);
      } else {
        await this.clearAfter(0);
      }
      st = await session.selectOption(this.panel, 0, colour, colourOnly);
      if (this.revealedPanel !== this.panel.serial) {
        st = await session.revealSizes(this.panel, colour);
        this.revealedPanel = this.panel.serial;
      }
      const values = names.slice(1).map((_, i) => st.sections[i + 1]?.options.map((o) => o.text) ?? []);
      if (this.laterValues === null) this.laterValues = values;
      else if (JSON.stringify(values) !== JSON.stringify(this.laterValues))
        throw structure(`spec panel: the options of ${names.slice(1).join('/')} differ between colours`);
    }
    await this.explore([colour], st);
  }

  /** Reads the price at the current selection; a range splits on the next dimension. */
  private async explore(prefix: string[], st: PanelState): Promise<void> {
    const k = prefix.length;
    const price = readPanelPrice(st.view.priceText);
    if (k === this.names.length) {
      if (st.view.count !== null && st.view.count !== '1')
        throw structure(`spec panel: quantity reads ${st.view.count}, expected 1 while collecting`);
      if (price.kind === 'range') throw structure(`spec panel: a complete selection shows a range ${price.raw}`);
      this.readings.record(prefix, {
        price_cent: price.kind === 'single' ? price.cent : null,
        list_price_cent: readListPrice(st.view.listPriceText),
        raw_price: price.raw || null,
        available: true,
        observed: prefix,
      });
      this.measured++;
      return;
    }
    if (price.kind === 'single' && this.canMeasure(st, k)) return this.split(prefix, st);
    if (price.kind !== 'range') {
      for (const rest of completions(st, k)) {
        const available = rest.every((o) => o.enabled);
        const priced = available && price.kind === 'single';
        this.readings.record([...prefix, ...rest.map((o) => o.text)], {
          price_cent: priced ? price.cent : null,
          list_price_cent: null,
          raw_price: priced ? price.raw : null,
          available,
          observed: priced ? prefix : [],
        });
      }
      return;
    }
    this.perSku = true;
    await this.split(prefix, st);
  }

  /** Every row under the selection can still be measured: a goods is measured whole colours at a time. */
  private canMeasure(st: PanelState, k: number): boolean {
    const rows = completions(st, k).filter((rest) => rest.every((o) => o.enabled)).length;
    return this.measured + rows <= this.measuredRowsMax;
  }

  /** Each option of the next dimension in turn, alone after `prefix` (a range, or a single price to measure per row). */
  private async split(prefix: string[], st: PanelState): Promise<void> {
    const k = prefix.length;
    const section = st.sections[k];
    if (!section) throw structure(`spec panel: ${this.names[k]} is not in view`);
    const options = section.options.map((o) => ({ text: o.text, enabled: o.enabled }));
    for (const o of options) {
      if (!o.enabled) {
        for (const rest of completions(st, k + 1))
          this.readings.record([...prefix, o.text, ...rest.map((r) => r.text)], unavailable());
        continue;
      }
      await this.clearAfter(k);
      const next = await this.session.selectOption(this.panel, k, o.text, [
        ...prefix,
        o.text,
        ...this.names.slice(k + 1).map(() => null),
      ]);
      await this.explore([...prefix, o.text], next);
    }
  }

  /** Deselects every dimension after `k`, deepest first (one tap, one proving dump each). */
  private async clearAfter(k: number): Promise<void> {
    const p = this.panel;
    for (let d = this.names.length - 1; d > k; d--) {
      const v = p.state.selection[d];
      if (v === null || v === undefined) continue;
      await this.session.selectOption(
        p,
        d,
        v,
        p.state.selection.map((s, i) => (i === d ? null : s)),
      );
    }
  }
}
