import { Show, type JSX } from 'solid-js';
import type { ProductListItem } from '../../../../domain/catalog-views';
import { navigate } from '../../router';
import { pathOf, ROUTES } from '../../route-table';
import { ListTable } from '../ListParts';
import StateBadge from './StateBadge';

/** 商品's rows: state, SKUs (with those whose spec did not parse), mapped, the PDD goods; a row opens it. */
export default function ProductTable(props: { items: readonly ProductListItem[]; loading: boolean }): JSX.Element {
  return (
    <ListTable
      testid="products-table"
      columns={['商品ID', '名称', '状态', 'SKU', '已映射', '拼多多商品']}
      items={props.items}
      loading={props.loading}
      empty="没有商品"
    >
      {(p) => (
        <tr
          class={`clickable ${p.parse_failed_count > 0 ? 'parse-failed' : ''}`}
          data-testid="product-row"
          data-goods-id={p.goods_id}
          data-state={p.state}
          data-parse-failed={p.parse_failed_count}
          onClick={() => navigate(pathOf(ROUTES.product, { goodsId: p.goods_id }))}
        >
          <td>{p.goods_id}</td>
          <td>
            {p.title}
            <Show when={p.shopee_status}>
              <span class="muted"> · {p.shopee_status}</span>
            </Show>
          </td>
          <td>
            <StateBadge state={p.state} />
          </td>
          <td>
            {p.sku_count}
            <Show when={p.parse_failed_count > 0}>
              <span class="badge badge-warn after-text" data-testid="parse-failed-count">
                {p.parse_failed_count} 个待补全
              </span>
            </Show>
          </td>
          <td>
            {p.mapped_count}/{p.sku_count}
          </td>
          <td>{p.pdd_goods_id ?? '—'}</td>
        </tr>
      )}
    </ListTable>
  );
}
