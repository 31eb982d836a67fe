import { batch, createEffect, createSignal, on, type Accessor, type Setter } from 'solid-js';
import type { Page } from '../../../domain/page';
import { errorText } from '../errors';
import { createPoll } from './poll';

const MAX_LIMIT = 200;

export interface PagedListOptions<T, F> {
  /** The filters (from the hash, usually); a change reloads the first page. */
  filters: Accessor<F>;
  fetch: (filters: F, limit: number, cursor: string | null) => Promise<Page<T>>;
  pageSize: number;
  /** Re-read the first page every `ms` while `while(items)` holds (a row may change any second). */
  poll?: { ms: number; while: (items: readonly T[]) => boolean };
  /** Called with every fresh first page, in the batch that shows it (to prune selections). */
  onFirstPage?: (page: Page<T>) => void;
}

export interface PagedList<T> {
  items: Accessor<T[]>;
  setItems: Setter<T[]>;
  /** null on the last page */
  cursor: Accessor<string | null>;
  total: Accessor<number | null>;
  loading: Accessor<boolean>;
  loadError: Accessor<string | null>;
  /** The first page again; `quiet` does not show the loading state (a poll). */
  reload: (quiet?: boolean) => Promise<void>;
  /** The next page, appended (加载更多). */
  more: () => Promise<void>;
}

/**
 * The one list behind every list page: keyset paging with `next_cursor`, a reload whenever the
 * filters change, and polling. Each load is numbered; a response to a superseded filter is
 * dropped, not shown. A reload re-reads as many rows as are on screen, so polling never
 * shortens the list the operator is reading.
 */
export function createPagedList<T, F>(opts: PagedListOptions<T, F>): PagedList<T> {
  const [items, setItems] = createSignal<T[]>([]);
  const [cursor, setCursor] = createSignal<string | null>(null);
  const [total, setTotal] = createSignal<number | null>(null);
  const [loading, setLoading] = createSignal(false);
  const [loadError, setLoadError] = createSignal<string | null>(null);

  let generation = 0;
  const load = async (append: boolean, quiet = false): Promise<void> => {
    const gen = append ? generation : ++generation;
    if (!quiet) setLoading(true);
    setLoadError(null);
    try {
      const limit = append ? opts.pageSize : Math.min(MAX_LIMIT, Math.max(opts.pageSize, items().length));
      const page = await opts.fetch(opts.filters(), limit, append ? cursor() : null);
      if (gen !== generation) return;
      batch(() => {
        setItems((prev) => (append ? [...prev, ...page.items] : page.items));
        setCursor(page.next_cursor);
        setTotal(page.total ?? null);
        if (!append) opts.onFirstPage?.(page);
      });
    } catch (err) {
      if (gen === generation) setLoadError(errorText(err));
    } finally {
      if (gen === generation) setLoading(false);
    }
  };

  createEffect(
    on(
      () => JSON.stringify(opts.filters()),
      () => void load(false),
    ),
  );
  const poll = opts.poll;
  if (poll) createPoll(() => load(false, true), poll.ms, { while: () => !loading() && poll.while(items()) });

  return {
    items,
    setItems,
    cursor,
    total,
    loading,
    loadError,
    reload: (quiet) => load(false, quiet),
    more: () => load(true),
  };
}
