import {
  ApplicationFailure,
  deprecatePatch,
  proxyActivities,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { CatalogCollectActivities } from '../activities/admin/catalog-contract';
import { collectFailureStatus } from '../domain/collect-labels';
import { GoodsIdAttr as GoodsId, TaskStatusAttr as TaskStatus } from '../domain/search-attributes';
import { ADMIN_TASK_QUEUE } from '../domain/task-queues';
import { describeFailure } from './activity-failure';
import { withDevice } from './device-claim';

interface CollectInput {
  pddGoodsId: string;
  goodsUrl: string;
}

const admin = proxyActivities<CatalogCollectActivities>({
  taskQueue: ADMIN_TASK_QUEUE,
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '30 seconds',
    nonRetryableErrorTypes: ['COLLECT_GOODS_MISMATCH', 'COLLECT_NO_SKUS'],
  },
});

/**
 * `collect/<pddGoodsId>`: claim a phone, read every option and price of the
 * goods (read-only, so transient failures retry with backoff), store the result in the admin,
 * release the phone. Any failure is recorded with its code and where the artifacts are.
 *
 * `TaskStatus` speaks the collect task row's words (domain/collect-labels.ts: queued, collecting,
 * succeeded, failed, rejected), so one query finds the same runs in Temporal and in `tasks`
 * (docs/versioning.md, `collect-status-as-row`).
 */
export async function collect(input: CollectInput): Promise<{ status: 'collected'; skus: number }> {
  const { workflowId } = workflowInfo();
  const { pddGoodsId } = input;
  upsertSearchAttributes([
    { key: GoodsId, value: pddGoodsId },
    { key: TaskStatus, value: 'collecting' },
  ]);
  try {
    const outcome = await withDevice({ waitForDevice: '14 minutes' }, async ({ claim, activities }) => {
      await admin.markCollecting({ pddGoodsId, workflowId, deviceId: claim.device_id });
      const { skus_json, counters } = await activities.collectSkus({ claim, pddGoodsId });
      return admin.saveCollectResult({
        pddGoodsId,
        workflowId,
        deviceId: claim.device_id,
        result: skus_json,
        counters: { ...counters },
      });
    });
    deprecatePatch('collect-status-as-row');
    upsertSearchAttributes([{ key: TaskStatus, value: 'succeeded' }]);
    return outcome;
  } catch (err) {
    const failure = collectFailure(err);
    await admin.markCollectFailed({ pddGoodsId, workflowId, ...failure });
    deprecatePatch('collect-status-as-row');
    upsertSearchAttributes([{ key: TaskStatus, value: collectFailureStatus(failure.code) }]);
    throw ApplicationFailure.nonRetryable(failure.message, failure.code);
  }
}

/** The collect's failure as the PDD goods page shows it. */
function collectFailure(err: unknown): { code: string; message: string; artifactPath: string | null } {
  const f = describeFailure(err);
  if (f.timeoutType)
    return { code: 'DEVICE_TIMEOUT', message: `no phone answered in time (${f.timeoutType})`, artifactPath: null };
  return { code: f.type ?? 'COLLECT_FAILED', message: f.message, artifactPath: f.artifactPath };
}
