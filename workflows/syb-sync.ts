import { proxyActivities } from '@temporalio/workflow';
import type { AdminActivities } from '../activities/admin';
import type { SybSyncCounts } from '../domain/syb';

const { syncSybOrders } = proxyActivities<AdminActivities>({
  // A long first sync may walk many pages; each page heartbeats, so a dead worker is noticed
  // within the heartbeat timeout rather than at the end of the start-to-close one.
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: {
    // A short SYB outage heals within the run; a longer one waits for the next scheduled run
    // (every 10 minutes), which repeats the same days anyway. A wrong or missing account is
    // non-retryable (thrown as such by the activity).
    initialInterval: '20 seconds',
    backoffCoefficient: 2,
    maximumAttempts: 3,
  },
});

/** 顺运宝 → syb_orders, run by the Schedule `syb-sync` (overlap SKIP) or by 立即同步. */
export async function sybSync(): Promise<SybSyncCounts> {
  return syncSybOrders();
}
