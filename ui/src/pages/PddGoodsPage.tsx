import { createResource, For, Show, type JSX } from 'solid-js';
import { getPddProduct, startCollect } from '../api/endpoints';
import ErrorMessage from '../components/ErrorMessage';
import CollectRuns from '../components/catalog/CollectRuns';
import PddGoodsSkus from '../components/catalog/PddGoodsSkus';
import StateBadge from '../components/catalog/StateBadge';
import '../components/catalog/catalog.css';
import { errorText } from '../errors';
import { createAction } from '../lib/action';
import { createPoll } from '../lib/poll';
import { hrefFor, navigate } from '../router';

const POLL_MS = 3_000;

/** PDD 商品详情: every collected option with price and stock, the goods' figures, the last collects. */
export default function PddGoodsPage(props: { pddGoodsId: string }): JSX.Element {
  const [goods, { refetch, mutate }] = createResource(() => props.pddGoodsId, getPddProduct);
  const current = () => (goods.state === 'ready' || goods.state === 'refreshing' ? goods.latest : undefined);
  createPoll(async () => mutate(await getPddProduct(props.pddGoodsId)), POLL_MS, {
    while: () => current()?.state === 'collecting',
  });

  const collect = createAction(async () => {
    await startCollect(props.pddGoodsId);
    await refetch();
  });

  return (
    <section data-testid="page-pdd-goods">
      <button type="button" class="btn btn-ghost" onClick={() => navigate('/pdd')}>
        ← 返回拼多多商品列表
      </button>
      <ErrorMessage testid="pdd-goods-error" message={goods.error ? errorText(goods.error) : null} />
      <ErrorMessage message={collect.error()} />
      <Show when={current()}>
        {(g) => (
          <>
            <h2 data-testid="pdd-goods-title">{g().title ?? `拼多多商品 ${g().goods_id}`}</h2>
            <p class="muted">
              商品 ID {g().goods_id}
              <Show when={g().shop_name}> · {g().shop_name}</Show> · <StateBadge state={g().state} />
              <Show when={g().metrics?.sales_text}>{(s) => <span data-testid="pdd-goods-sales"> · {s()}</span>}</Show>
              {' · '}
              <a href={g().canonical_url} target="_blank" rel="noopener noreferrer">
                打开拼多多页面
              </a>
            </p>
            <p>
              <button
                type="button"
                class="btn btn-primary"
                data-testid="pdd-goods-collect"
                disabled={g().state === 'collecting'}
                onClick={() => void collect.run()}
              >
                {g().collect_status === 'pending' ? '采集' : '重新采集'}
              </button>
              <Show when={g().state === 'failed' && g().collect_msg}>
                <span class="form-error after-text"> 采集失败：{g().collect_msg}</span>
              </Show>
            </p>

            <PddGoodsSkus goods={g()} />

            <div class="card" style={{ 'margin-top': '12px' }}>
              <h3>关联的虾皮商品</h3>
              <For each={g().linked_products} fallback={<p class="muted">没有虾皮商品指向这个拼多多商品</p>}>
                {(p) => (
                  <p>
                    <a href={hrefFor(`/products/${p.goods_id}`)}>{p.goods_id}</a> · {p.title}
                  </p>
                )}
              </For>
            </div>

            <CollectRuns runs={g().recent_collects} />
          </>
        )}
      </Show>
    </section>
  );
}
