import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { ResolveReconciliationInput } from '../../../domain/purchase/workflow-types';
import type { WorkflowAction } from '../../../domain/contracts/purchase-messages';
import { markAudited } from '../../audit/audit';
import { actorOf } from '../../auth/principal';
import { actOnTask, type ActionOutcome } from '../../purchase/actions';
import { markPaidMany, recheckPayment } from '../../purchase/payment-checks';
import { retryFromStop } from '../../purchase/retry';
import { getPurchaseTask } from '../../purchase/task-view';
import type { AppDeps } from '../deps';
import { invalidInput, conflict } from '../../../domain/api-error';
import { parseBody, parseParams } from '../validate';
import { taskParams } from './tasks';

const resolveBody = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('created'), pdd_order_no: z.string().trim().min(1).max(64) }).strict(),
  z.object({ outcome: z.literal('not_created') }).strict(),
]);

const markPaidBody = z
  .object({
    tasks: z
      .array(z.object({ task_id: z.string().min(1).max(64), version: z.number().int().positive() }).strict())
      .min(1)
      .max(200),
  })
  .strict();

/**
 * Body fields an earlier release took, with the name to send now (docs/api.md "Names"): `order_no`
 * said either order number, so a request that still sends it is refused with the one it means.
 */
const RENAMED_RESOLVE_FIELDS: Readonly<Record<string, string>> = { order_no: 'pdd_order_no' };

function refuseRenamedFields(body: unknown, renamed: Readonly<Record<string, string>>): void {
  if (typeof body !== 'object' || body === null) return;
  for (const [old, now] of Object.entries(renamed))
    if (old in body)
      throw invalidInput('FIELD_RENAMED', `${old} is no longer taken: send ${now}`, { field: old, use: now });
}

/** The client's key for one operator request: a retry with the same key gets the first answer. */
function idempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^[A-Za-z0-9:._-]{1,100}$/.test(header)) {
    throw invalidInput('INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key: 1–100 characters of A-Z a-z 0-9 : . _ -');
  }
  return header;
}

/**
 * A request the workflow did not finish within the deadline: said so, never reported as done.
 * Otherwise `applied` (this request made the change) or `superseded` (the workflow got there first).
 */
function finished(outcome: ActionOutcome): 'applied' | 'superseded' {
  if (outcome === 'pending')
    throw conflict(
      'UPDATE_PENDING',
      'the workflow did not finish the action in time; send the same request again (same Idempotency-Key) to see its outcome',
    );
  return outcome.result;
}

/**
 * The operator actions on a purchase task (docs/api.md), each route named as its action in the
 * state machine; the answer is the task as it is now, with what became of the request.
 */
export function taskActionRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/tasks' });

  const act = async (ctx: Context, taskId: string, action: WorkflowAction, resolution?: ResolveReconciliationInput) => {
    const key = idempotencyKey(ctx.get('idempotency-key') || undefined);
    const result = finished(await actOnTask(deps, actorOf(ctx), taskId, action, resolution, key));
    markAudited(ctx); // written with the change, by the workflow's admin activity
    ctx.body = { ...(await getPurchaseTask(deps.db, taskId)), result };
  };

  // 标记已付款 for several tasks: each applied or refused on its own, then checked on its phone
  router.post('/mark-paid', async (ctx) => {
    const body = parseBody(ctx, markPaidBody);
    ctx.body = { tasks: await markPaidMany(deps, actorOf(ctx), body.tasks) };
    markAudited(ctx); // each task's request and change are audited as themselves
  });

  // 重新核对: look at the phone's 待付款 list again for a task marked paid (read-only)
  router.post('/:taskId/payment-check', async (ctx) => {
    const { taskId } = parseParams(ctx, taskParams);
    await recheckPayment(deps, actorOf(ctx), taskId);
    markAudited(ctx);
    ctx.body = await getPurchaseTask(deps.db, taskId);
  });

  for (const action of ['cancel', 'reset', 'mark-paid'] as const) {
    router.post(`/:taskId/${action}`, async (ctx) => act(ctx, parseParams(ctx, taskParams).taskId, action));
  }

  // 从停止处重试: reset and start again in one click, for a stop before the tap (admin/purchase/retry.ts)
  router.post('/:taskId/retry', async (ctx) => {
    const { taskId } = parseParams(ctx, taskParams);
    const started = await retryFromStop(
      deps,
      actorOf(ctx),
      taskId,
      idempotencyKey(ctx.get('idempotency-key') || undefined),
    );
    markAudited(ctx); // the reset and the start are audited as themselves
    ctx.body = { ...(await getPurchaseTask(deps.db, taskId)), started };
  });

  // also settles a task whose workflow was closed by hand (admin/purchase/repair.ts)
  router.post('/:taskId/resolve', async (ctx) => {
    const { taskId } = parseParams(ctx, taskParams);
    refuseRenamedFields((ctx.request as { body?: unknown }).body, RENAMED_RESOLVE_FIELDS);
    const body = parseBody(ctx, resolveBody);
    await act(
      ctx,
      taskId,
      'resolve',
      body.outcome === 'created' ? { outcome: 'created', orderNo: body.pdd_order_no } : { outcome: 'not_created' },
    );
  });

  return router;
}
