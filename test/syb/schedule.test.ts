import { Client } from '@temporalio/client';
import { SYB_SYNC_SCHEDULE_ID } from '../../domain/syb';
import { decryptHistoryPayloads } from '../../temporal/codec/history';
import { loginOperator, sharedTemporal, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { until } from '../device/fixtures';
import { RECIPIENT, shipment, startSim, taipeiAt } from './helpers';

/** The Temporal side: the Schedule `syb-sync`, the manual trigger, and what history holds. */
describe('SYB sync on Temporal', () => {
  let sim: Awaited<ReturnType<typeof startSim>>;
  let admin: TestAdmin | undefined;
  let op: OperatorClient;

  beforeAll(async () => {
    sim = await startSim([
      shipment(1, taipeiAt(0, '09:00:00'), [{ productId: '33300000001', spec: '黑色,M', price: '10.005' }]),
    ]);
  });
  afterAll(async () => {
    await admin?.close();
    await sim?.close();
  });

  const schedules = async (client: Client) => {
    const ids: string[] = [];
    for await (const s of client.schedule.list()) ids.push(s.scheduleId);
    return ids;
  };

  it('without an account: the Schedule exists once, paused; a manual sync is refused; the password is never returned', async () => {
    admin = await startTestAdmin();
    await admin.sybScheduleReady;
    op = await loginOperator(admin);
    const client = await admin.temporal.client();
    expect(await schedules(client)).toEqual([SYB_SYNC_SCHEDULE_ID]);
    const described = await client.schedule.getHandle(SYB_SYNC_SCHEDULE_ID).describe();
    expect(described.state.paused).toBe(true);
    expect(described.policies.overlap).toBe('SKIP');
    expect(described.spec.intervals).toMatchObject([{ every: 600_000 }]);

    const refused = await op.post('/api/syb/sync');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'SYB_NOT_CONFIGURED' } });

    const creds = await sim.control.credentials();
    const set = await op.put('/api/syb/settings', { url: sim.url, username: creds.username, password: creds.password });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ url: sim.url, username: creds.username, password_set: true, configured: true });
    expect(JSON.stringify(set.body)).not.toContain(creds.password);
    const read = await op.get('/api/syb/settings');
    expect(JSON.stringify(read.body)).not.toContain(creds.password);
    expect(read.body).not.toHaveProperty('password');
    expect((await client.schedule.getHandle(SYB_SYNC_SCHEDULE_ID).describe()).state.paused).toBe(false);
    // the first sync runs at once, not ten minutes later: 订单 never says 尚未同步 for long
    await until(
      'the first sync to run',
      async () => ((await op.get('/api/syb/sync')).body as { last_synced_at: string | null }).last_synced_at,
      30_000,
    );
    expect((await op.get('/api/syb/orders')).body).toMatchObject({ items: [{ shopee_goods_id: '33300000001' }] });
    const settingsRows = JSON.stringify(await admin.db.selectFrom('app_settings').selectAll().execute());
    const auditRows = JSON.stringify(await admin.db.selectFrom('audit_log').selectAll().execute());
    expect(settingsRows).not.toContain(creds.password);
    expect(auditRows).not.toContain(creds.password);
    expect(auditRows).toContain('syb.settings.set');
  });

  it('立即同步: 202 with the workflow id; the history carries counts, never the recipient', async () => {
    const started = await op.post('/api/syb/sync');
    expect(started.status).toBe(202);
    const workflowId = (started.body as { workflow_id: string }).workflow_id;
    // started by the Schedule's trigger: one of its actions, under the id the Schedule gave it
    expect(workflowId.startsWith(`${SYB_SYNC_SCHEDULE_ID}-`)).toBe(true);
    const client = await admin!.temporal.client();
    const handle = client.workflow.getHandle(workflowId);
    // the line came with the first sync, at account set: this one reads it again
    expect(await handle.result()).toMatchObject({ lines: 1, new_lines: 0 });
    const status = await op.get('/api/syb/sync');
    expect(status.body).toMatchObject({ running: false, last_error: null, progress: { pages: 1, lines: 1 } });
    expect((status.body as { last_synced_at: string | null }).last_synced_at).not.toBeNull();
    // Payload bytes as text, whichever form the decoded history gives them (bytes or base64).
    // decrypted first (temporal/codec): what the codec endpoint would show an operator
    const history = JSON.stringify(
      (await decryptHistoryPayloads(await handle.fetchHistory())).events ?? [],
      (k, v: unknown) => {
        if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
        if (k === 'data' && typeof v === 'string') return Buffer.from(v, 'base64').toString('utf8');
        return v;
      },
    );
    expect(history).toContain('new_lines'); // the payloads are readable here, so the checks below mean something
    for (const value of Object.values(RECIPIENT)) expect(history).not.toContain(value);
    expect(history).not.toContain('33300000001'); // no order data either: counts only
    expect(history).not.toContain((await sim.control.credentials()).password);
    expect((await sim.control.requests()).every((r) => !r.authorization)).toBe(true);
  });

  it('at start an existing Schedule whose spec differs from the code is brought back to it', async () => {
    const client = await admin!.temporal.client();
    const handle = client.schedule.getHandle(SYB_SYNC_SCHEDULE_ID);
    // what an older release (or a hand edit in the Web UI) left behind
    await handle.update((prev) => ({ ...prev, spec: { intervals: [{ every: '1 hour' }] } }));
    expect((await handle.describe()).spec.intervals).toMatchObject([{ every: 3_600_000 }]);
    const { dataDir, namespace } = admin!;
    await admin!.close();
    const creds = await sim.control.credentials();
    admin = await startTestAdmin({
      dataDir,
      temporal: { address: sharedTemporal().address, namespace },
      syb: { password: creds.password },
    });
    await admin.sybScheduleReady;
    const again = (await admin.temporal.client()).schedule.getHandle(SYB_SYNC_SCHEDULE_ID);
    expect((await again.describe()).spec.intervals).toMatchObject([{ every: 600_000 }]);
    expect((await again.describe()).state.paused).toBe(false);
  });

  it('after an admin restart the Schedule still exists exactly once', async () => {
    const { dataDir, namespace } = admin!;
    await admin!.close();
    const creds = await sim.control.credentials();
    admin = await startTestAdmin({
      dataDir,
      temporal: { address: sharedTemporal().address, namespace },
      syb: { password: creds.password },
    });
    await admin.sybScheduleReady;
    const client = await admin.temporal.client();
    expect(await schedules(client)).toEqual([SYB_SYNC_SCHEDULE_ID]);
    // URL and user name came back from app_settings, the password from the environment.
    expect((await client.schedule.getHandle(SYB_SYNC_SCHEDULE_ID).describe()).state.paused).toBe(false);
  });
});
