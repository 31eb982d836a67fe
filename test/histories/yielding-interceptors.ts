import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';

/**
 * TEST CODE ONLY: what @temporalio/interceptors-opentelemetry's workflow interceptors do to the
 * order of commands, without their spans: an `await` before the workflow starts and before each
 * activity is scheduled (they extract and inject the trace context there). test/histories/replay.test.ts
 * bundles this in place of workflows/tracing.ts to show why that interceptor must not yield.
 */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        await Promise.resolve();
        return next(input);
      },
    },
  ],
  outbound: [
    {
      async scheduleActivity(input, next) {
        await Promise.resolve();
        return next(input);
      },
    },
  ],
});
