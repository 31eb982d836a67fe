import { revokeDeviceCredential } from '../../admin/auth/device-credentials';
import { releaseStaleHolds } from '../../admin/devices/holds';
import { issueTestDevice, loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';

/**
 * How a hold ends without its holder's button (admin/devices/holds.ts): the idle limit, the end
 * of the holder's session, the phone's revocation; and who may not be held at all. The sweep the
 * admin runs every few seconds is called here directly.
 */
describe('phone holds', () => {
  let admin: TestAdmin;
  let op: OperatorClient;

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
  });
  afterAll(async () => {
    await admin?.close();
  });

  const releases = async (deviceId: string) =>
    (
      await admin.db
        .selectFrom('audit_log')
        .select('details_json')
        .where('action', '=', 'device.release')
        .where('target_id', '=', deviceId)
        .execute()
    ).map((r) => (JSON.parse(r.details_json ?? '{}') as { why: string }).why);
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString().slice(0, 19) + 'Z';

  it('a revoked phone or one nobody knows cannot be held', async () => {
    const phone = await issueTestDevice(admin);
    await revokeDeviceCredential(admin.db, { kind: 'system', name: 'test' }, phone.deviceId);
    expect(await op.post(`/api/devices/${phone.deviceId}/hold`)).toMatchObject({
      status: 409,
      body: { error: { code: 'DEVICE_REVOKED' } },
    });
    expect((await op.post('/api/devices/00000000-0000-4000-8000-000000000000/hold')).status).toBe(404);
    expect(await admin.db.selectFrom('device_holds').selectAll().execute()).toEqual([]);
  });

  it('ends after the idle limit, a setting', async () => {
    const phone = await issueTestDevice(admin);
    expect((await op.put('/api/settings', { 'devices.hold_idle_minutes': 2 })).status).toBe(200);
    const held = await op.post(`/api/devices/${phone.deviceId}/hold`);
    const h = held.body as { since: string; idle_release_at: string };
    expect(Date.parse(h.idle_release_at) - Date.parse(h.since)).toBe(2 * 60_000);
    await admin.db
      .updateTable('device_holds')
      .set({ last_input_at: minutesAgo(1) })
      .execute();
    expect(await releaseStaleHolds(admin.db)).toEqual([]);
    await admin.db
      .updateTable('device_holds')
      .set({ last_input_at: minutesAgo(3) })
      .execute();
    expect(await releaseStaleHolds(admin.db)).toEqual([phone.deviceId]);
    expect(await releases(phone.deviceId)).toEqual(['idle']);
    expect((await op.put('/api/settings', { 'devices.hold_idle_minutes': 5 })).status).toBe(200);
  });

  it('ends with the holder’s session, and with the phone’s revocation', async () => {
    const a = await issueTestDevice(admin);
    const b = await issueTestDevice(admin);
    const other = await loginOperator(admin);
    expect((await other.post(`/api/devices/${a.deviceId}/hold`)).status).toBe(200);
    expect((await op.post(`/api/devices/${b.deviceId}/hold`)).status).toBe(200);
    // the other session expires (its row gone, as the store deletes an expired one)
    await admin.db
      .updateTable('sessions')
      .set({ expires_at: minutesAgo(1) })
      .where(
        'id_sha256',
        '=',
        (
          await admin.db
            .selectFrom('device_holds')
            .select('session_sha256')
            .where('device_id', '=', a.deviceId)
            .executeTakeFirstOrThrow()
        ).session_sha256,
      )
      .execute();
    await revokeDeviceCredential(admin.db, { kind: 'system', name: 'test' }, b.deviceId);
    expect((await releaseStaleHolds(admin.db)).sort()).toEqual([a.deviceId, b.deviceId].sort());
    expect(await releases(a.deviceId)).toEqual(['session_ended']);
    expect(await releases(b.deviceId)).toEqual(['phone_revoked']);
  });
});
