/**
 * Catalog rules shared by the admin and the collect workflow (docs/architecture.md §4.1, §5.2).
 *
 * A collect that has been `collecting` for longer than this may be started again, and the
 * collect workflow's run timeout is this long, so a stuck collect ends by itself. Collecting is
 * read-only: a second collect costs nothing, a stuck one costs the goods. Never write 15
 * minutes anywhere else.
 */
export const CollectStaleAfterMs = 15 * 60 * 1000;
/** The same, as a Temporal duration string. */
export const CollectStaleAfter = '15 minutes';

export type CollectStatus = 'pending' | 'collecting' | 'collected' | 'failed';

/** The five states an operator filters Shopee products by (docs/architecture.md §5.2). */
export const PRODUCT_STATES = ['unlinked', 'pending', 'collecting', 'collected', 'failed'] as const;
export type ProductState = (typeof PRODUCT_STATES)[number];

export function collectWorkflowId(pddGoodsId: string): string {
  return `collect/${pddGoodsId}`;
}

/** Stale `collecting` is computed at read time (docs/architecture.md §4.1), never by a sweeper. */
export function staleBefore(nowMs: number): string {
  return `${new Date(nowMs - CollectStaleAfterMs).toISOString().slice(0, 19)}Z`;
}
