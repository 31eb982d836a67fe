import { batch, createSignal, Show, type JSX } from 'solid-js';
import type { Page } from '../../../domain/page';
import { MATCH_STATES, type MatchState } from '../../../domain/syb';
import { query } from '../api/client';
import { draftsFromOrderLines, listOrderLines, type OrderDraftResult, type OrderLine } from '../api/endpoints';
import { DraftBar, DraftResults } from '../components/orders/DraftPanel';
import OrderFilters, { type OrderFilterValues } from '../components/orders/OrderFilters';
import OrderTable from '../components/orders/OrderTable';
import MarginPanel from '../components/orders/MarginPanel';
import SyncPanel from '../components/orders/SyncPanel';
import '../components/orders/orders.css';
import '../components/tasks/tasks.css';
import type { ExecutionMode } from '../components/tasks/types';
import ErrorMessage from '../components/ErrorMessage';
import { ListToolbar, LoadMore } from '../components/ListParts';
import { createAction } from '../lib/action';
import { createPagedList, type PagedList } from '../lib/paged-list';
import { navigate } from '../router';
import { routeQuery } from '../route-table';

const PAGE_SIZE = 50;

type Filters = OrderFilterValues;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Filters live in the hash, so a reload or a trip through login lands on the same view. */
function routeFilters(): Filters {
  const p = routeQuery();
  const match = p.get('match') ?? '';
  const hasTask = p.get('has_task') ?? '';
  const day = (k: string): string => {
    const v = p.get(k) ?? '';
    return DAY.test(v) ? v : '';
  };
  return {
    q: p.get('q') ?? '',
    match: (MATCH_STATES as readonly string[]).includes(match) ? (match as MatchState) : '',
    has_task: hasTask === 'true' || hasTask === 'false' ? hasTask : '',
    date_from: day('date_from'),
    date_to: day('date_to'),
  };
}

const fetchLines = (f: Filters, limit: number, cursor: string | null): Promise<Page<OrderLine>> =>
  listOrderLines({
    q: f.q,
    match: f.match,
    hasTask: f.has_task === '' ? undefined : f.has_task === 'true',
    dateFrom: f.date_from,
    dateTo: f.date_to,
    limit,
    cursor,
  });

/** 订单: the 顺运宝 order lines, their Shopee SKU, and purchase drafts made from them. */
export default function OrdersPage(): JSX.Element {
  const filters = (): Filters => routeFilters();
  const list = createPagedList({ filters, fetch: fetchLines, pageSize: PAGE_SIZE });
  const [selected, setSelected] = createSignal<ReadonlySet<string>>(new Set());
  const load = (): Promise<void> => list.reload();
  const drafts = createOrderDrafts(list, selected, setSelected);

  const setFilter = (next: Partial<Filters>): void => {
    const f = { ...filters(), ...next };
    navigate(
      `/orders${query({ q: f.q, match: f.match, has_task: f.has_task, date_from: f.date_from, date_to: f.date_to })}`,
    );
  };

  const toggle = (line: OrderLine, on: boolean): void => {
    const next = new Set(selected());
    if (on) next.add(line.syb_id);
    else next.delete(line.syb_id);
    setSelected(next);
  };

  const replaceLine = (line: OrderLine): void => {
    list.setItems((prev) => prev.map((l) => (l.syb_id === line.syb_id ? line : l)));
  };

  return (
    <section class="page" data-testid="page-orders">
      <div class="or-head">
        <div>
          <h1 class="page-title">订单</h1>
          <p class="page-summary">
            从顺运宝同步来的客户订单明细。匹配到虾皮规格后，勾选明细即可生成采购草稿，再到「采购任务」开始采购。
          </p>
        </div>
        <SyncPanel onFinished={() => void load()} />
      </div>

      <ListToolbar
        testid="order"
        class="or-toolbar"
        searchClass="or-search"
        placeholder="订单号、商品名称、规格或商品ID"
        q={filters().q}
        onSearch={(q) => setFilter({ q })}
        loading={list.loading()}
        onRefresh={() => void load()}
        filters={<OrderFilters value={filters()} onChange={setFilter} />}
      />

      <DraftBar
        count={selected().size}
        mode={drafts.mode()}
        draft={drafts.draft}
        onMode={drafts.setMode}
        onClear={() => setSelected(new Set<string>())}
      />

      <Show when={drafts.results()}>
        {(r) => (
          <DraftResults
            results={r()}
            sybOrderNo={drafts.sybOrderNo}
            onClose={() => drafts.setResults(null)}
            draftAnyway={drafts.draftAnyway}
          />
        )}
      </Show>

      <ErrorMessage testid="order-load-error" message={list.loadError()} />

      <OrderTable
        lines={list.items()}
        isSelected={(id) => selected().has(id)}
        onToggle={toggle}
        onLineChanged={replaceLine}
      />

      <LoadMore
        testid="order-load-more"
        cursor={list.cursor()}
        loading={list.loading()}
        onMore={() => void list.more()}
      />

      <MarginPanel />
    </section>
  );
}

/** 生成采购草稿 from the picked lines: per-line results; refused lines stay picked to fix and retry. */
function createOrderDrafts(
  list: PagedList<OrderLine>,
  selected: () => ReadonlySet<string>,
  setSelected: (s: ReadonlySet<string>) => void,
) {
  const [mode, setMode] = createSignal<ExecutionMode>('dry_run');
  const [results, setResults] = createSignal<OrderDraftResult[] | null>(null);
  // The order numbers of the last batch's lines, kept with the results: a reload may drop a line from view.
  let resultSybOrderNos = new Map<string, string>();
  const draft = createAction(async () => {
    const ids = [...selected()];
    const res = await draftsFromOrderLines(ids, mode());
    const onScreen = new Map(list.items().map((l) => [l.syb_id, l.syb_order_no]));
    resultSybOrderNos = new Map(ids.map((id) => [id, onScreen.get(id) ?? id]));
    batch(() => {
      setResults(res.results);
      setSelected(new Set(res.results.filter((r) => r.task_id === null).map((r) => r.syb_id)));
    });
    await list.reload();
  });
  const sybOrderNo = (id: string): string => resultSybOrderNos.get(id) ?? id;
  // 仍然生成 of one line held back by the minimum margin: its result replaces the refusal in place
  const draftAnyway = async (sybId: string): Promise<void> => {
    const [one] = (await draftsFromOrderLines([sybId], mode(), true)).results;
    if (one)
      batch(() => {
        setResults((prev) => (prev ?? []).map((r) => (r.syb_id === sybId ? one : r)));
        if (one.task_id !== null) setSelected(new Set([...selected()].filter((id) => id !== sybId)));
      });
    await list.reload();
  };
  return { mode, setMode, draft, results, setResults, sybOrderNo, draftAnyway };
}
