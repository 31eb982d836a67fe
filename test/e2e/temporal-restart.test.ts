import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../platform/network';
import { startDevServer, type DevServer } from '../../temporal/dev-server';
import { ADMIN_TASK_QUEUE } from '../../domain/task-queues';
import { startTestAdmin, tempDataDir, type TestAdmin } from '../harness';
import type { systemCheck } from '../../workflows/system-check';
import { temporalDataConverter } from '../../temporal/codec';

/**
 * The durability promise: a workflow in flight survives the Temporal server going away, because
 * the dev server keeps history in a SQLite file. This test owns its server (the shared one must
 * not be stopped under other files).
 */
describe('Temporal dev server restart mid-workflow', () => {
  let server: DevServer | undefined;
  let admin: TestAdmin | undefined;

  afterAll(async () => {
    await admin?.close();
    await server?.stop();
  });

  it('finishes the workflow after the server restarts on the same SQLite file', async () => {
    const dir = tempDataDir('restart');
    const dbFile = path.join(dir, 'temporal.db');
    const port = await freePort();
    const start = () =>
      startDevServer({ dbFile, namespace: 'cmautobuy', port, uiPort: null, logFile: path.join(dir, 'temporal.log') });
    server = await start();
    admin = await startTestAdmin({ temporal: { address: server.address, namespace: 'cmautobuy' } });

    const connection = await Connection.connect({ address: server.address });
    const client = new Client({ dataConverter: temporalDataConverter(), connection, namespace: 'cmautobuy' });
    const handle = await client.workflow.start<typeof systemCheck>('systemCheck', {
      workflowId: 'system-check/restart-test',
      taskQueue: ADMIN_TASK_QUEUE,
      args: [{ holdSeconds: 4 }],
    });
    // Wait until the worker has run the first workflow task (the timer is in history).
    await waitFor(async () => {
      const history = await handle.fetchHistory();
      return (history.events ?? []).some((e) => e.timerStartedEventAttributes);
    });
    await connection.close();

    await server.stop();
    const down = await admin.temporal.healthy();
    expect(down).toBe(false);
    server = await start();

    const again = new Client({
      dataConverter: temporalDataConverter(),
      connection: await Connection.connect({ address: server.address }),
      namespace: 'cmautobuy',
    });
    const result = await again.workflow.getHandle('system-check/restart-test').result();
    expect(result).toMatchObject({ workflow_id: 'system-check/restart-test', db: 'ok' });
    const row = await admin.db
      .selectFrom('app_settings')
      .selectAll()
      .where('setting_key', '=', 'diagnostics.last_system_check')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.value_json).workflow_id).toBe('system-check/restart-test');
    await again.connection.close();
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}
