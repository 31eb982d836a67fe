import { Show, type JSX } from 'solid-js';
import type { PddListItem } from '../../../../domain/catalog-views';
import { formatTime } from '../../lib/time';
import { hrefFor } from '../../router';
import { pathOf, ROUTES } from '../../route-table';
import { ListTable } from '../ListParts';
import StateBadge from './StateBadge';

/** 拼多多商品's rows: collect state and time, the linked Shopee products, 采集 / 删除 per goods. */
export default function PddTable(props: {
  items: readonly PddListItem[];
  loading: boolean;
  onCollect: (goods: PddListItem) => void;
  onDelete: (goods: PddListItem) => void;
}): JSX.Element {
  return (
    <ListTable
      testid="pdd-table"
      columns={['商品 ID', '标题 / 店铺', '状态', '规格数', '关联虾皮商品', '采集时间', '']}
      items={props.items}
      loading={props.loading}
      empty="没有拼多多商品"
    >
      {(p) => (
        <tr data-testid="pdd-row" data-goods-id={p.goods_id} data-state={p.state}>
          <td>
            <a href={hrefFor(pathOf(ROUTES.pddGoods, { pddGoodsId: p.goods_id }))} data-testid="pdd-open">
              {p.goods_id}
            </a>
          </td>
          <td>
            {p.title ?? <span class="muted">未采集</span>}
            <Show when={p.shop_name}>
              <span class="muted"> · {p.shop_name}</span>
            </Show>
          </td>
          <td>
            <StateBadge state={p.state} />
            <Show when={p.state === 'failed' && p.collect_msg}>
              <div class="form-error">{p.collect_msg}</div>
            </Show>
          </td>
          <td>{p.sku_count ?? '—'}</td>
          <td>{p.linked_products}</td>
          <td>{formatTime(p.collected_at)}</td>
          <td>
            <button
              type="button"
              class="btn"
              disabled={p.state === 'collecting'}
              data-testid="pdd-collect"
              onClick={() => props.onCollect(p)}
            >
              {p.collect_status === 'pending' ? '采集' : '重新采集'}
            </button>{' '}
            <button type="button" class="btn btn-ghost" data-testid="pdd-delete" onClick={() => props.onDelete(p)}>
              删除
            </button>
          </td>
        </tr>
      )}
    </ListTable>
  );
}
