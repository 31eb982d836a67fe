import { For, Show, type JSX } from 'solid-js';
import type { PddGoodsDetailView } from '../../../../domain/catalog-views';
import { formatTime } from '../../lib/time';
import PriceNote from './PriceNote';
import PriceStockCells from './PriceStockCells';

/** 规格: every collected option of a PDD goods with its price and stock. */
export default function PddGoodsSkus(props: { goods: PddGoodsDetailView }): JSX.Element {
  const g = (): PddGoodsDetailView => props.goods;
  return (
    <div class="card">
      <h3>
        规格
        <Show when={g().collected_at}>
          <span class="list-total">采集于 {formatTime(g().collected_at)}</span>
        </Show>
      </h3>
      <p>
        <PriceNote rows={g().skus} />
      </p>
      <table class="cat-table" data-testid="pdd-goods-skus">
        <thead>
          <tr>
            <For each={g().dimensions}>{(d) => <th>{d.name}</th>}</For>
            <th>价格</th>
            <th>库存</th>
          </tr>
        </thead>
        <tbody>
          <For
            each={g().skus}
            fallback={
              <tr>
                <td colSpan={g().dimensions.length + 2} class="muted">
                  还没有采集结果
                </td>
              </tr>
            }
          >
            {(row) => (
              <tr
                data-testid="pdd-goods-sku"
                data-option-key={row.option_key}
                data-available={row.available ? '1' : '0'}
              >
                <For each={g().dimensions}>{(d) => <td>{row.options[d.key] ?? ''}</td>}</For>
                <PriceStockCells row={row} testid="pdd-goods-sku" unknownPrice="未知" omit="PRICE_UNKNOWN" />
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </div>
  );
}
