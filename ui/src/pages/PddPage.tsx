import { createSignal, For, Show, type JSX } from 'solid-js';
import type { PddListItem } from '../../../domain/catalog-views';
import { deletePddProduct, listPddProducts, startCollect } from '../api/endpoints';
import ConfirmDialog from '../components/ConfirmDialog';
import ListOrDetail from '../components/ListOrDetail';
import ErrorMessage from '../components/ErrorMessage';
import { LoadMore } from '../components/ListParts';
import '../components/catalog/catalog.css';
import { STATE_LABELS, type ProductState } from '../components/catalog/states';
import { createAction } from '../lib/action';
import { createPagedList } from '../lib/paged-list';
import { matchRoute, ROUTES } from '../route-table';
import PddTable from '../components/catalog/PddTable';
import PddGoodsPage from './PddGoodsPage';

const POLL_MS = 3_000;
const PAGE_SIZE = 50;

/** `/pdd` is the list; `/pdd/<pddGoodsId>` one goods with what was collected. */
export default function PddPage(): JSX.Element {
  return (
    <ListOrDetail
      id={matchRoute(ROUTES.pddGoods)?.pddGoodsId ?? null}
      list={PddList}
      detail={(id) => <PddGoodsPage pddGoodsId={id} />}
    />
  );
}

/** PDD 商品: the linked PDD goods, their collect state, collect / re-collect and soft delete. */
function PddList(): JSX.Element {
  const [q, setQ] = createSignal('');
  const [state, setState] = createSignal<PddState | ''>('');
  const [deleting, setDeleting] = createSignal<PddListItem | null>(null);
  const list = createPagedList({
    filters: () => ({ q: q(), state: state() }),
    fetch: (f, limit, cursor) => listPddProducts({ ...f, limit, cursor }),
    pageSize: PAGE_SIZE,
    poll: { ms: POLL_MS, while: (items) => items.some((i) => i.state === 'collecting') },
  });
  const refetch = (): Promise<void> => list.reload();

  const act = createAction(async (fn: () => Promise<unknown>) => {
    await fn();
    await refetch();
  });

  return (
    <section data-testid="page-pdd">
      <h2>
        拼多多商品
        <Show when={list.total() !== null}>
          <span class="list-total" data-testid="pdd-total">
            共 {list.total()} 条
          </span>
        </Show>
      </h2>
      <p class="page-summary">已关联的拼多多商品，以及手机采集到的规格和价格。</p>
      <PddFilters onSearch={setQ} onState={setState} />
      <ErrorMessage testid="pdd-error" message={act.error() ?? list.loadError()} />
      <PddTable
        items={list.items()}
        loading={list.loading()}
        onCollect={(p) => void act.run(() => startCollect(p.goods_id))}
        onDelete={setDeleting}
      />
      <LoadMore
        testid="pdd-more"
        cursor={list.cursor()}
        loading={list.loading()}
        hint={false}
        onMore={() => void list.more()}
      />
      <Show when={deleting()} keyed>
        {(p) => (
          <PddDeleteDialog
            goods={p}
            busy={act.busy()}
            onDelete={() => act.run(() => deletePddProduct(p.goods_id))}
            onClose={() => setDeleting(null)}
          />
        )}
      </Show>
    </section>
  );
}

type PddState = Exclude<ProductState, 'unlinked'>;

/** Search and 状态: the list's filters. */
function PddFilters(props: { onSearch: (q: string) => void; onState: (state: PddState | '') => void }): JSX.Element {
  return (
    <div class="cat-toolbar">
      <input
        class="input"
        placeholder="搜索商品 ID、标题、店铺"
        data-testid="pdd-search"
        onChange={(e) => props.onSearch(e.currentTarget.value)}
      />
      <select
        class="input"
        data-testid="pdd-state"
        onChange={(e) => props.onState(e.currentTarget.value as PddState | '')}
      >
        <option value="">全部状态</option>
        <For
          each={(['pending', 'collecting', 'collected', 'failed'] as const).map((s) => [s, STATE_LABELS[s]] as const)}
        >
          {([v, l]) => <option value={v}>{l}</option>}
        </For>
      </select>
    </div>
  );
}

/** 删除拼多多商品, confirmed first: what goes with it and how to get it back. */
function PddDeleteDialog(props: {
  goods: PddListItem;
  busy: boolean;
  onDelete: () => Promise<unknown>;
  onClose: () => void;
}): JSX.Element {
  const p = props.goods;
  return (
    <ConfirmDialog
      title="删除拼多多商品"
      message={`删除「${p.title ?? p.goods_id}」？它与虾皮商品的关联和采集到的规格、价格会一起移除，关联的虾皮商品变为「未关联」。重新粘贴同一链接可以恢复。`}
      confirmLabel="确认删除"
      danger
      testid="pdd-delete-dialog"
      busy={props.busy}
      onConfirm={() => void props.onDelete().then(() => props.onClose())}
      onClose={props.onClose}
    />
  );
}
