import type { ActivityInboundCallsInterceptor, WorkerInterceptors } from '@temporalio/worker';
import { chaosEnabled, chaosPoint } from '../platform/chaos';

/**
 * A worker's interceptors with the chaos run's activity points added (platform/chaos.ts): every
 * activity of a workflow reports its start, and the runner, which asks the workflow which step it
 * is in, kills a process at the first activity of each step. Without a chaos run the interceptors are returned as given.
 */
export function withChaosPoints(interceptors: WorkerInterceptors | undefined): WorkerInterceptors | undefined {
  if (!chaosEnabled()) return interceptors;
  return {
    ...interceptors,
    activity: [
      ...(interceptors?.activity ?? []),
      (ctx) => {
        const inbound: ActivityInboundCallsInterceptor = {
          execute: async (input, next) => {
            const workflowId = ctx.info.workflowExecution?.workflowId;
            if (!workflowId) return next(input);
            const activity = ctx.info.activityType;
            await chaosPoint({ kind: 'activity', activity, workflowId, local: ctx.info.isLocal });
            return next(input);
          },
        };
        return { inbound };
      },
    ],
  };
}
