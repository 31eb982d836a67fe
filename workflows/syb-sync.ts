import { proxyActivities } from '@temporalio/workflow';
import type { AdminActivities } from '../activities/admin';
import type { SybSyncCounts } from '../domain/syb';

const { syncSybOrders } = proxyActivities<AdminActivities>({
  // A long first sync may walk many pages. The activity heartbeats every second (throttled by
  // the SDK to one per 8 s), so a dead worker is noticed within the heartbeat timeout rather
  // than at the end of the start-to-close one; and a heartbeat's answer is how the running
  // activity learns that this workflow was cancelled or terminated, so a short timeout is what
  // makes it stop within seconds. (Activity options are not part of the recorded commands:
  // changing them leaves running workflows replaying.)
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '10 seconds',
  retry: {
    // A short SYB outage heals within the run; a longer one waits for the next scheduled run
    // (every 10 minutes), which repeats the same days anyway. A wrong or missing account, an
    // answer too costly to parse, a spent budget and a stopped sync are non-retryable (thrown as
    // such by the activity): fetching the same again at once cannot end differently.
    initialInterval: '20 seconds',
    backoffCoefficient: 2,
    maximumAttempts: 3,
  },
});

/** 顺运宝 → syb_orders, run by the Schedule `syb-sync` (overlap SKIP) or by 立即同步. */
export async function sybSync(): Promise<SybSyncCounts> {
  return syncSybOrders();
}
