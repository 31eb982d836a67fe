import { createResource, createSignal, For, Match, Show, Switch, type JSX } from 'solid-js';
import type { ProductListItem } from '../../../domain/catalog-views';
import { listShopeeProducts } from '../api/endpoints';
import ImportPanel from '../components/catalog/ImportPanel';
import StateBadge from '../components/catalog/StateBadge';
import '../components/catalog/catalog.css';
import { PRODUCT_STATES, STATE_LABELS, type ProductState } from '../components/catalog/states';
import { errorText } from '../errors';
import { navigate } from '../router';
import { matchRoute, ROUTES } from '../route-table';
import ProductDetailPage from './ProductDetailPage';

const PAGE_SIZE = 50;

/** `/products` is the list; `/products/<goodsId>` the detail of one product. */
export default function ProductsPage(): JSX.Element {
  const detailId = (): string | null => matchRoute(ROUTES.product)?.goodsId ?? null;
  return (
    <Show when={detailId()} keyed fallback={<ProductList />}>
      {(id) => <ProductDetailPage goodsId={id} />}
    </Show>
  );
}

function ProductList(): JSX.Element {
  const [q, setQ] = createSignal('');
  const [state, setState] = createSignal<ProductState | ''>('');
  const [parseFailed, setParseFailed] = createSignal(false);
  const [items, setItems] = createSignal<ProductListItem[]>([]);
  const [epoch, setEpoch] = createSignal(0);

  const [page] = createResource(
    () => ({ q: q(), state: state(), pf: parseFailed(), epoch: epoch() }),
    async (p) => {
      const res = await listShopeeProducts({ q: p.q, state: p.state, parseFailed: p.pf, limit: PAGE_SIZE });
      setItems(res.items);
      return res;
    },
  );
  const [more, setMore] = createSignal<string | null>(null);
  const next = (): string | null => more() ?? (page.state === 'ready' ? page().next_cursor : null);
  const loadMore = async (): Promise<void> => {
    const cursor = next();
    if (!cursor) return;
    const res = await listShopeeProducts({
      q: q(),
      state: state(),
      parseFailed: parseFailed(),
      limit: PAGE_SIZE,
      cursor,
    });
    setItems([...items(), ...res.items]);
    setMore(res.next_cursor ?? '');
  };
  const refresh = (): void => {
    setMore(null);
    setEpoch(epoch() + 1);
  };

  let searchTimer: number | undefined;
  return (
    <section data-testid="page-products">
      <h2>
        商品
        <Show when={page.latest}>
          {(p) => (
            <span class="list-total" data-testid="products-total">
              共 {p().total} 条
            </span>
          )}
        </Show>
      </h2>
      <p class="page-summary">虾皮（Shopee 台湾）商品与 SKU，以及它们对应的拼多多商品。</p>
      <ImportPanel onDone={refresh} />
      <div class="cat-toolbar">
        <input
          class="input"
          placeholder="搜索商品ID、名称、货号、SKU ID"
          data-testid="products-search"
          onInput={(e) => {
            const v = e.currentTarget.value;
            window.clearTimeout(searchTimer);
            searchTimer = window.setTimeout(() => {
              setMore(null);
              setQ(v);
            }, 300);
          }}
        />
        <select
          class="input"
          data-testid="products-state"
          onChange={(e) => {
            setMore(null);
            setState(e.currentTarget.value as ProductState | '');
          }}
        >
          <option value="">全部状态</option>
          <For each={PRODUCT_STATES}>{(s) => <option value={s}>{STATE_LABELS[s]}</option>}</For>
        </select>
        <label>
          <input
            type="checkbox"
            data-testid="products-parse-failed"
            onChange={(e) => {
              setMore(null);
              setParseFailed(e.currentTarget.checked);
            }}
          />{' '}
          只看规格解析失败
        </label>
      </div>
      <Switch>
        <Match when={page.error as unknown}>
          <p class="form-error" role="alert" data-testid="products-error">
            {errorText(page.error)}
          </p>
        </Match>
        <Match when={true}>
          <table class="cat-table" data-testid="products-table">
            <thead>
              <tr>
                <th>商品ID</th>
                <th>名称</th>
                <th>状态</th>
                <th>SKU</th>
                <th>已映射</th>
                <th>拼多多商品</th>
              </tr>
            </thead>
            <tbody>
              <For
                each={items()}
                fallback={
                  <tr>
                    <td colSpan={6} class="muted">
                      {page.loading ? '正在加载…' : '没有商品'}
                    </td>
                  </tr>
                }
              >
                {(p) => (
                  <tr
                    class={`clickable ${p.parse_failed_count > 0 ? 'parse-failed' : ''}`}
                    data-testid="product-row"
                    data-goods-id={p.goods_id}
                    data-state={p.state}
                    data-parse-failed={p.parse_failed_count}
                    onClick={() => navigate(`/products/${p.goods_id}`)}
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
              </For>
            </tbody>
          </table>
          <Show when={next()}>
            <button type="button" class="btn" data-testid="products-more" onClick={() => void loadMore()}>
              加载更多
            </button>
          </Show>
        </Match>
      </Switch>
    </section>
  );
}
