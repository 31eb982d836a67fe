import { createEffect, createSignal, For, Show, type JSX } from 'solid-js';
import './components.css';

/**
 * The parts every list page shares around its table: the search toolbar (a search box, its
 * filters, 刷新), 加载更多 and the catalog's table. The toolbar's `testid` is the page's prefix
 * (`task` → `task-search`, `task-search-submit`, `task-refresh`).
 */
export function ListToolbar(props: {
  testid: string;
  class: string;
  searchClass: string;
  placeholder: string;
  /** the search in the filters; the box follows it when the filters change */
  q: string;
  onSearch: (q: string) => void;
  loading: boolean;
  onRefresh: () => void;
  /** filters between 搜索 and 刷新 */
  filters?: JSX.Element;
  /** controls after 刷新 */
  children?: JSX.Element;
}): JSX.Element {
  const [search, setSearch] = createSignal(props.q);
  createEffect(() => setSearch(props.q));
  return (
    <form
      class={props.class}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch(search().trim());
      }}
    >
      <input
        class={`input ${props.searchClass}`}
        type="search"
        placeholder={props.placeholder}
        data-testid={`${props.testid}-search`}
        value={search()}
        onInput={(e) => setSearch(e.currentTarget.value)}
      />
      <button type="submit" class="btn" data-testid={`${props.testid}-search-submit`}>
        搜索
      </button>
      {props.filters}
      <button
        type="button"
        class="btn btn-ghost"
        data-testid={`${props.testid}-refresh`}
        disabled={props.loading}
        onClick={() => props.onRefresh()}
      >
        刷新
      </button>
      {props.children}
    </form>
  );
}

export function LoadMore(props: {
  testid: string;
  cursor: string | null;
  loading: boolean;
  onMore: () => void;
  /** false where the table's own empty row already says 正在加载… */
  hint?: boolean;
}): JSX.Element {
  return (
    <div class="tk-more">
      <Show when={props.cursor !== null}>
        <button
          type="button"
          class="btn"
          data-testid={props.testid}
          disabled={props.loading}
          onClick={() => props.onMore()}
        >
          {props.loading ? '正在加载…' : '加载更多'}
        </button>
      </Show>
      <Show when={props.hint !== false && props.loading && props.cursor === null}>
        <span class="muted">正在加载…</span>
      </Show>
    </div>
  );
}

/** A catalog list's table: the column heads, a row per item, and 正在加载… / `empty` when there is none. */
export function ListTable<T>(props: {
  testid: string;
  columns: readonly string[];
  items: readonly T[];
  loading: boolean;
  empty: string;
  children: (item: T) => JSX.Element;
}): JSX.Element {
  return (
    <table class="cat-table" data-testid={props.testid}>
      <thead>
        <tr>
          <For each={props.columns}>{(c) => <th>{c}</th>}</For>
        </tr>
      </thead>
      <tbody>
        <For
          each={props.items}
          fallback={
            <tr>
              <td colSpan={props.columns.length} class="muted">
                {props.loading ? '正在加载…' : props.empty}
              </td>
            </tr>
          }
        >
          {(item) => props.children(item)}
        </For>
      </tbody>
    </table>
  );
}
