import { Show, type JSX } from 'solid-js';
import type { PddSkuRow } from '../../../../domain/catalog-views';

/**
 * The 实测/推测价格 note explains a table that has both: rows whose price was read on the phone and
 * rows whose price was carried over from their colour (past the collect's budget of measured
 * rows, or from a collect made before every row was measured). Where every priced row is
 * one or the other there is nothing to tell apart, and it says nothing.
 */
export default function PriceNote(props: { rows: readonly PddSkuRow[] }): JSX.Element {
  const mixed = (): boolean => {
    const priced = props.rows.filter((r) => r.price_cent !== null);
    return priced.some((r) => !r.price_inferred) && priced.some((r) => r.price_inferred);
  };
  return (
    <Show when={mixed()}>
      <span class="muted" data-testid="price-note">
        只有标「实测」的行是选中该规格读到的价格，其余沿用同颜色的价格（推测价格：规格组合过多或较早的采集）。
      </span>
    </Show>
  );
}
