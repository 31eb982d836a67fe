import { GoodsIdAttr, TaskStatusAttr } from '../../domain/search-attributes';
import { CollectStaleAfter, collectWorkflowId, staleBefore, type ProductState } from '../../domain/catalog';
import { foldForSearch } from '../../domain/catalog-search';
import type { PddGoodsDetailView, PddListItem } from '../../domain/catalog-views';
import type { Page } from '../../domain/page';
import { canonicalPddGoodsUrl } from '../../domain/pdd-url';
import { ADMIN_TASK_QUEUE } from '../../domain/task-queues';
import { nowUtc } from '../../domain/time';
import { writeTransaction, type AdminDb } from '../db/database';
import { notFound } from '../../domain/api-error';
import type { TemporalGateway } from '../temporal/gateway';
import { containsText } from '../db/like';
import { collectStateIs, decodeCursor, encodeCursor, type AuditHook } from './common';
import { CatalogErrors } from './errors';
import { insertCollectTask } from './collect-task';
import { collected, pddSkuRows, pddView } from './pdd-view';
import type { collect } from '../../workflows/collect';

export interface PddListQuery {
  q?: string | undefined;
  state?: Exclude<ProductState, 'unlinked'> | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** PDD 商品 list (soft-deleted goods are not shown): keyset by id, newest first. */
export async function listPddProducts(
  db: AdminDb,
  query: PddListQuery,
  nowMs = Date.now(),
): Promise<Page<PddListItem>> {
  const afterText = decodeCursor(query.cursor);
  const after = afterText === undefined ? undefined : Number(afterText);
  const stale = staleBefore(nowMs);
  let filtered = db.selectFrom('pdd_products as p').where('p.deleted_at', 'is', null);
  const q = query.q?.trim();
  if (q) {
    const folded = foldForSearch(q);
    filtered = filtered.where((eb) =>
      eb.or([
        eb('p.goods_id', '=', q),
        containsText(eb, 'p.title', q),
        containsText(eb, 'p.shop_name', q),
        containsText(eb, 'p.search_text', folded),
      ]),
    );
  }
  if (query.state !== undefined) filtered = filtered.where(collectStateIs(query.state, stale));
  const counted = await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let qb = filtered.selectAll('p').select((eb) => [
    eb
      .selectFrom('shopee_products as sp')
      .whereRef('sp.pdd_goods_id', '=', 'p.goods_id')
      .select((e) => e.fn.countAll<number>().as('n'))
      .as('linked_products'),
  ]);
  if (after !== undefined && Number.isSafeInteger(after)) qb = qb.where('p.id', '<', after);
  const rows = await qb
    .orderBy('p.id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => {
      const v = pddView(r, nowMs);
      const skus = (v.skus_json as { skus?: unknown[] } | null)?.skus;
      return {
        goods_id: v.goods_id,
        title: v.title,
        shop_name: v.shop_name,
        collect_status: v.collect_status,
        collect_stale: v.collect_stale,
        state: v.state,
        collect_msg: v.collect_msg,
        collected_at: v.collected_at,
        sku_count: Array.isArray(skus) ? skus.length : null,
        linked_products: Number(r.linked_products ?? 0),
        updated_at: v.updated_at,
      };
    }),
    next_cursor: rows.length > query.limit && last ? encodeCursor(String(last.id)) : null,
    total: Number(counted.n),
  };
}

/** One PDD goods with what was collected, the products linked to it and its last collect runs. */
export async function getPddProduct(db: AdminDb, pddGoodsId: string, nowMs = Date.now()): Promise<PddGoodsDetailView> {
  const row = await db
    .selectFrom('pdd_products')
    .selectAll()
    .where('goods_id', '=', pddGoodsId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row)
    throw notFound(
      CatalogErrors.PDD_PRODUCT_NOT_FOUND,
      `no PDD goods ${pddGoodsId}; paste its link on a Shopee product first`,
    );
  const linked = await db
    .selectFrom('shopee_products')
    .select(['goods_id', 'title'])
    .where('pdd_goods_id', '=', pddGoodsId)
    .orderBy('goods_id')
    .execute();
  const runs = await db
    .selectFrom('tasks')
    .select([
      'task_id',
      'status',
      'device_id',
      'error_code',
      'error_message',
      'artifact_ref',
      'created_at',
      'finished_at',
    ])
    .where('task_type', '=', 'collect')
    .where('pdd_goods_id', '=', pddGoodsId)
    .orderBy('created_at', 'desc')
    .orderBy('task_id', 'desc')
    .limit(RECENT_COLLECTS)
    .execute();
  const data = collected(row.skus_json);
  return {
    ...pddView(row, nowMs),
    linked_products: linked,
    dimensions: data?.dimensions.map((d) => ({ key: d.key, name: d.name })) ?? [],
    skus: pddSkuRows(data),
    metrics: data?.metrics ? { sales_text: data.metrics.sales_text } : null,
    recent_collects: runs,
  };
}

/** How many collect runs the goods page lists: enough to see a pattern, not a history browser. */
const RECENT_COLLECTS = 10;

/** Soft delete (docs/architecture.md §5.2): hidden, but the row and its mappings stay; pasting again revives. */
export async function softDeletePdd(db: AdminDb, pddGoodsId: string, audit: AuditHook): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('pdd_products')
      .select(['id'])
      .where('goods_id', '=', pddGoodsId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound(CatalogErrors.PDD_PRODUCT_NOT_FOUND, `no PDD goods ${pddGoodsId}`);
    const now = nowUtc();
    await trx.updateTable('pdd_products').set({ deleted_at: now, updated_at: now }).where('id', '=', row.id).execute();
    await audit(trx, { action: 'pdd.product.delete', target: { kind: 'pdd_product', id: pddGoodsId } });
  });
}

/**
 * Starts (or joins) the collect workflow of one PDD goods (docs/architecture.md §4.1). USE_EXISTING:
 * while a collect of this goods runs, asking again returns that run. The run times out after
 * CollectStaleAfter, so a stuck collect ends by itself and may be started again. Temporal is
 * asked first, so a Temporal outage writes nothing.
 */
export async function startCollect(db: AdminDb, temporal: TemporalGateway, pddGoodsId: string, audit: AuditHook) {
  const row = await db
    .selectFrom('pdd_products')
    .select(['goods_id'])
    .where('goods_id', '=', pddGoodsId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row)
    throw notFound(
      CatalogErrors.PDD_PRODUCT_NOT_FOUND,
      `no PDD goods ${pddGoodsId}; paste its link on a Shopee product first`,
    );
  const client = await temporal.client();
  const workflowId = collectWorkflowId(pddGoodsId);
  const goodsUrl = canonicalPddGoodsUrl(pddGoodsId);
  const handle = await client.workflow.start<typeof collect>('collect', {
    workflowId,
    taskQueue: ADMIN_TASK_QUEUE,
    args: [{ pddGoodsId, goodsUrl }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowExecutionTimeout: CollectStaleAfter,
    typedSearchAttributes: [
      { key: GoodsIdAttr, value: pddGoodsId },
      { key: TaskStatusAttr, value: 'queued' },
    ],
  });
  const runId = handle.firstExecutionRunId;
  const started = await writeTransaction(db, async (trx) => {
    const now = nowUtc();
    const isNew = await insertCollectTask(trx, { pddGoodsId, workflowId, runId });
    // Only a run this row has not seen yet resets the status; an activity of this run that
    // already reported (collecting, collected, failed) is never overwritten by the route.
    await trx
      .updateTable('pdd_products')
      .set({
        collect_status: 'collecting',
        collect_workflow_id: workflowId,
        collect_run_id: runId,
        collect_device_id: null,
        collect_code: null,
        collect_msg: null,
        artifact_ref: null,
        updated_at: now,
      })
      .where('goods_id', '=', pddGoodsId)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('collect_run_id', 'is', null), eb('collect_run_id', '!=', runId)]))
      .execute();
    await audit(trx, {
      action: 'pdd.collect.start',
      target: { kind: 'pdd_product', id: pddGoodsId },
      details: { workflow_id: workflowId, run_id: runId, joined_existing: !isNew },
    });
    return isNew;
  });
  return { workflow_id: workflowId, run_id: runId, started };
}
