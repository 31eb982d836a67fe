import { batch, createEffect, createSignal, For, on, Show, type JSX } from 'solid-js';
import { MATCH_STATE_ZH, MATCH_STATES, type MatchState } from '../../../domain/syb';
import { query } from '../api/client';
import { draftsFromOrderLines, listOrderLines, type OrderDraftResult, type OrderLine } from '../api/endpoints';
import { DraftBar, DraftResults } from '../components/orders/DraftPanel';
import OrderTable from '../components/orders/OrderTable';
import SyncPanel from '../components/orders/SyncPanel';
import '../components/orders/orders.css';
import '../components/tasks/tasks.css';
import type { ExecutionMode } from '../components/tasks/types';
import { errorText } from '../errors';
import { currentRoute, navigate } from '../router';

const PAGE_SIZE = 50;

interface Filters {
  q: string;
  match: MatchState | '';
  /** 'true' | 'false' | '' as in the API */
  has_task: string;
  date_from: string;
  date_to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Filters live in the hash, so a reload or a trip through login lands on the same view. */
function routeFilters(): Filters {
  const full = currentRoute();
  const i = full.indexOf('?');
  const p = new URLSearchParams(i === -1 ? '' : full.slice(i + 1));
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

/** 订单: the 顺运宝 order lines, their Shopee SKU, and purchase drafts made from them. */
export default function OrdersPage(): JSX.Element {
  const filters = (): Filters => routeFilters();
  const filterKey = (): string => JSON.stringify(filters());
  const [search, setSearch] = createSignal(filters().q);
  const [items, setItems] = createSignal<OrderLine[]>([]);
  const [cursor, setCursor] = createSignal<string | null>(null);
  const [loading, setLoading] = createSignal(false);
  const [loadError, setLoadError] = createSignal<string | null>(null);
  const [selected, setSelected] = createSignal<ReadonlySet<string>>(new Set());
  const [mode, setMode] = createSignal<ExecutionMode>('dry_run');
  const [drafting, setDrafting] = createSignal(false);
  const [draftError, setDraftError] = createSignal<string | null>(null);
  const [results, setResults] = createSignal<OrderDraftResult[] | null>(null);
  // The order numbers of the last batch's lines, kept with the results: a reload may drop a line from view.
  let resultSybOrderNos = new Map<string, string>();

  // Each load is numbered; a response to a superseded filter is dropped, not shown.
  let generation = 0;
  const load = async (append: boolean): Promise<void> => {
    const gen = append ? generation : ++generation;
    const f = filters();
    setLoading(true);
    setLoadError(null);
    try {
      const page = await listOrderLines({
        q: f.q,
        match: f.match,
        hasTask: f.has_task === '' ? undefined : f.has_task === 'true',
        dateFrom: f.date_from,
        dateTo: f.date_to,
        limit: PAGE_SIZE,
        cursor: append ? cursor() : null,
      });
      if (gen !== generation) return;
      batch(() => {
        setItems((prev) => (append ? [...prev, ...page.items] : page.items));
        setCursor(page.next_cursor);
      });
    } catch (err) {
      if (gen === generation) setLoadError(errorText(err));
    } finally {
      if (gen === generation) setLoading(false);
    }
  };

  createEffect(
    on(filterKey, () => {
      setSearch(filters().q);
      void load(false);
    }),
  );

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
    setItems((prev) => prev.map((l) => (l.syb_id === line.syb_id ? line : l)));
  };

  const createDrafts = async (): Promise<void> => {
    if (drafting()) return;
    const ids = [...selected()];
    setDrafting(true);
    setDraftError(null);
    try {
      const res = await draftsFromOrderLines(ids, mode());
      const onScreen = new Map(items().map((l) => [l.syb_id, l.syb_order_no]));
      resultSybOrderNos = new Map(ids.map((id) => [id, onScreen.get(id) ?? id]));
      batch(() => {
        setResults(res.results);
        // Lines that got a draft are done; refused ones stay picked, to fix and try again.
        setSelected(new Set(res.results.filter((r) => r.task_id === null).map((r) => r.syb_id)));
      });
      await load(false);
    } catch (err) {
      setDraftError(errorText(err));
    } finally {
      setDrafting(false);
    }
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
        <SyncPanel onFinished={() => void load(false)} />
      </div>

      <form
        class="or-toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ q: search().trim() });
        }}
      >
        <input
          class="input or-search"
          type="search"
          placeholder="订单号、商品名称、规格或商品ID"
          data-testid="order-search"
          value={search()}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
        <button type="submit" class="btn" data-testid="order-search-submit">
          搜索
        </button>
        <select
          class="input"
          data-testid="order-filter-match"
          value={filters().match}
          onChange={(e) => setFilter({ match: e.currentTarget.value as MatchState | '' })}
        >
          <option value="">全部匹配状态</option>
          <For each={MATCH_STATES}>{(s) => <option value={s}>{MATCH_STATE_ZH[s]}</option>}</For>
        </select>
        <select
          class="input"
          data-testid="order-filter-task"
          value={filters().has_task}
          onChange={(e) => setFilter({ has_task: e.currentTarget.value })}
        >
          <option value="">有无采购任务（全部）</option>
          <option value="false">未生成采购任务</option>
          <option value="true">已生成采购任务</option>
        </select>
        <label>
          下单日期
          <input
            class="input"
            type="date"
            data-testid="order-date-from"
            value={filters().date_from}
            onChange={(e) => setFilter({ date_from: e.currentTarget.value })}
          />
        </label>
        <label>
          至
          <input
            class="input"
            type="date"
            data-testid="order-date-to"
            value={filters().date_to}
            onChange={(e) => setFilter({ date_to: e.currentTarget.value })}
          />
        </label>
        <button
          type="button"
          class="btn btn-ghost"
          data-testid="order-refresh"
          disabled={loading()}
          onClick={() => void load(false)}
        >
          刷新
        </button>
      </form>

      <DraftBar
        count={selected().size}
        mode={mode()}
        busy={drafting()}
        error={draftError()}
        onMode={setMode}
        onDraft={() => void createDrafts()}
        onClear={() => setSelected(new Set<string>())}
      />

      <Show when={results()}>
        {(r) => (
          <DraftResults
            results={r()}
            sybOrderNo={(id) => resultSybOrderNos.get(id) ?? id}
            onClose={() => setResults(null)}
          />
        )}
      </Show>

      <Show when={loadError()}>
        {(msg) => (
          <p class="form-error" role="alert" data-testid="order-load-error">
            {msg()}
          </p>
        )}
      </Show>

      <OrderTable
        lines={items()}
        isSelected={(id) => selected().has(id)}
        onToggle={toggle}
        onLineChanged={replaceLine}
      />

      <div class="tk-more">
        <Show when={cursor() !== null}>
          <button
            type="button"
            class="btn"
            data-testid="order-load-more"
            disabled={loading()}
            onClick={() => void load(true)}
          >
            {loading() ? '正在加载…' : '加载更多'}
          </button>
        </Show>
        <Show when={loading() && cursor() === null}>
          <span class="muted">正在加载…</span>
        </Show>
      </div>
    </section>
  );
}
