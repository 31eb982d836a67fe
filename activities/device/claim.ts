import { Context } from '@temporalio/activity';
import { DeviceError } from '../../device-worker/errors';
import { toFailure } from './failure';
import type { DeviceContext } from './context';
import type { ClaimDeviceActivities, DeviceClaim } from '../../domain/contracts/device-activities';

/**
 * `claimDevice` runs on the shared `devices` queue and is taken by whichever idle device
 * worker polls first. The claim is recorded for the calling workflow in the local ledger
 * before the answer leaves, so the phone is never handed out twice; a phone that may take no
 * claim now (paused, 需处理, off ADB, revoked) refuses it first.
 */
export function createClaimActivities(ctx: DeviceContext): ClaimDeviceActivities {
  return {
    async claimDevice(): Promise<DeviceClaim> {
      const execution = Context.current().info.workflowExecution;
      try {
        if (!execution) throw new DeviceError('DEVICE_NOT_CLAIMED', 'claimDevice must be called from a workflow');
        const { workflowId, runId } = execution;
        // A refused phone hands the task back (DEVICE_BUSY retries on the next idle phone) before
        // anything is recorded, so the workflow never sees a claim of a phone that must not buy.
        // The same workflow asking again for a claim it already holds gets it back regardless.
        const refusal = ctx.ledger.openClaim()?.workflow_id === workflowId ? null : await ctx.claimRefusal?.();
        if (refusal) throw new DeviceError('DEVICE_BUSY', `this phone takes no claim now: ${refusal}`);
        const row = ctx.ledger.claim(workflowId, runId);
        ctx.log.info({ workflowId, claimId: row.claim_id }, 'device claimed');
        ctx.onClaimed();
        return {
          claim_id: row.claim_id,
          device_id: ctx.deviceId,
          task_queue: ctx.taskQueue,
          claimed_at: row.claimed_at,
        };
      } catch (err) {
        throw toFailure(err, null, null);
      }
    },
  };
}
