import { Show, type JSX } from 'solid-js';
import type { PddSkuRow } from '../../../../domain/catalog-views';
import { formatYuan } from '../../lib/money';

/**
 * Where a collected price comes from, beside it: 实测 (read on this combination) or a 推测价格
 * mark (carried over from another combination of the same colour — a cap taken from it is a
 * guess), then the list price when one was read. Nothing for an unknown price.
 */
export default function PriceSource(props: {
  row: Pick<PddSkuRow, 'price_cent' | 'price_inferred' | 'list_price_cent'>;
}): JSX.Element {
  return (
    <>
      <Show when={props.row.price_cent !== null}>
        <Show when={props.row.price_inferred} fallback={<span class="muted"> 实测</span>}>
          <span
            class="badge badge-pending after-text"
            data-testid="price-inferred"
            title="这个规格没有单独读到价格，按同颜色读到的价格推测"
          >
            推测价格
          </span>
        </Show>
      </Show>
      <Show when={props.row.list_price_cent !== null}>
        <span class="muted"> 划线 {formatYuan(props.row.list_price_cent)}</span>
      </Show>
    </>
  );
}
