import { createSignal, For, Match, Show, Switch, type JSX } from 'solid-js';
import { listShopeeProducts } from '../api/endpoints';
import ImportPanel from '../components/catalog/ImportPanel';
import '../components/catalog/catalog.css';
import { PRODUCT_STATES, STATE_LABELS, type ProductState } from '../components/catalog/states';
import ListOrDetail from '../components/ListOrDetail';
import ErrorMessage from '../components/ErrorMessage';
import { LoadMore } from '../components/ListParts';
import { createPagedList } from '../lib/paged-list';
import { matchRoute, ROUTES } from '../route-table';
import ProductTable from '../components/catalog/ProductTable';
import ProductDetailPage from './ProductDetailPage';

const PAGE_SIZE = 50;

/** `/products` is the list; `/products/<goodsId>` the detail of one product. */
export default function ProductsPage(): JSX.Element {
  return (
    <ListOrDetail
      id={matchRoute(ROUTES.product)?.goodsId ?? null}
      list={ProductList}
      detail={(id) => <ProductDetailPage goodsId={id} />}
    />
  );
}

/** how often the list looks again while a product on it is being collected */
const COLLECT_POLL_MS = 3_000;

function ProductList(): JSX.Element {
  const [q, setQ] = createSignal('');
  const [state, setState] = createSignal<ProductState | ''>('');
  const [parseFailed, setParseFailed] = createSignal(false);
  const list = createPagedList({
    filters: () => ({ q: q(), state: state(), parseFailed: parseFailed() }),
    fetch: (f, limit, cursor) => listShopeeProducts({ ...f, limit, cursor }),
    pageSize: PAGE_SIZE,
    // a collect ends on the phone's time: the row leaves 采集中 by itself, never only after a reload
    poll: { ms: COLLECT_POLL_MS, while: (items) => items.some((p) => p.state === 'collecting') },
  });
  const refresh = (): void => void list.reload();

  let searchTimer: number | undefined;
  return (
    <section data-testid="page-products">
      <h2>
        商品
        <Show when={list.total() !== null}>
          <span class="list-total" data-testid="products-total">
            共 {list.total()} 条
          </span>
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
              setQ(v);
            }, 300);
          }}
        />
        <select
          class="input"
          data-testid="products-state"
          onChange={(e) => {
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
              setParseFailed(e.currentTarget.checked);
            }}
          />{' '}
          只看规格解析失败
        </label>
      </div>
      <Switch>
        <Match when={list.loadError()}>
          <ErrorMessage testid="products-error" message={list.loadError()} />
        </Match>
        <Match when={true}>
          <ProductTable items={list.items()} loading={list.loading()} />
          <LoadMore
            testid="products-more"
            cursor={list.cursor()}
            loading={list.loading()}
            hint={false}
            onMore={() => void list.more()}
          />
        </Match>
      </Switch>
    </section>
  );
}
