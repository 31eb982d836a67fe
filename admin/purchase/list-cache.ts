import type { AdminDb } from '../db/database';
import { listTasks, type ListQuery } from './queries';

/**
 * The task list's pages, kept while nothing they show has changed. Every operator screen polls
 * the list every few seconds; between two changes of `tasks` (or of a phone's name or PDD account, or of a payment check) the answer
 * is the same bytes, and building it again — the page's query, its count, the mapping and the
 * JSON — was most of what a list request cost the admin during a batch (docs/PERFORMANCE.md).
 *
 * Never stale: `task_list_version` is raised by triggers in the transaction of every such change
 * (migration 0135), read before the page is built, and a kept page is answered only while the
 * version it was built at is still the current one. A page built after a newer change than the
 * version it is filed under is only ever newer, never older, than what it says.
 */
export class TaskListCache {
  private readonly pages = new Map<string, { version: number; json: string }>();

  /** `size`: the pages kept, least recently answered dropped first (a deep page or a search each take one) */
  constructor(private readonly size = 64) {}

  /** The page as JSON text, ready to send. */
  async page(db: AdminDb, query: ListQuery): Promise<string> {
    const { n: version } = await db
      .selectFrom('task_list_version')
      .select('n')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    const key = JSON.stringify([
      query.status,
      query.q,
      query.includeHidden === true,
      query.paymentCheck ?? null,
      query.cursor,
      query.limit,
    ]);
    const kept = this.pages.get(key);
    this.pages.delete(key);
    if (kept && kept.version === version) {
      this.pages.set(key, kept);
      return kept.json;
    }
    const json = JSON.stringify(await listTasks(db, query));
    this.pages.set(key, { version, json });
    if (this.pages.size > this.size) this.pages.delete(this.pages.keys().next().value as string);
    return json;
  }
}
