import { issueHostCredential } from '../../admin/auth/host-credentials';
import { adbClient, probePhone } from '../../phone-host/probe';
import { startPhoneSim, type PhoneSim } from '../../sim/phone';
import { deviceRequest, loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';

jest.setTimeout(300_000);

/**
 * One handset is one device (docs/phone-hosts.md "One handset, one device"): the host reads the
 * phone's own serial (`ro.serialno`) over ADB, and the admin refuses to enrol a second ADB serial
 * of the same handset — the same phone over USB and over Wi-Fi (`ip:port`), or on another host.
 */
describe('one handset, one device', () => {
  const USB = 'R58M0000ABC';
  const WIFI = '192.168.1.20:5555';
  const OTHER = 'R58M0000XYZ';
  let admin: TestAdmin;
  let op: OperatorClient;
  let sim: PhoneSim;

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: [USB, WIFI, OTHER] });
    // the Wi-Fi connection of the USB phone: another ADB serial, the same handset
    sim.phone(WIFI).setFaults({ hardware_serial: USB });
  });
  afterAll(async () => {
    await sim?.close();
    await admin?.close();
  });

  async function newHost(name: string): Promise<{ hostId: string; authorization: string }> {
    const issued = await issueHostCredential(admin.db, { kind: 'system', name: 'test' }, name);
    return { hostId: issued.hostId, authorization: `Bearer ${issued.hostId}.${issued.token}` };
  }
  const probe = (serial: string) => probePhone(adbClient({ host: '127.0.0.1', port: sim.adbPort }), serial);
  const report = async (host: { authorization: string }, serial: string) =>
    deviceRequest(admin, host, 'POST', '/api/host/phones', { body: await probe(serial) });
  const rows = () =>
    admin.db.selectFrom('host_phones').select(['serial', 'hardware_serial']).orderBy('serial').execute();

  it('the host reads the handset’s serial: the same over USB and over Wi-Fi', async () => {
    expect((await probe(USB)).hardware_serial).toBe(USB);
    expect((await probe(WIFI)).hardware_serial).toBe(USB);
    expect((await probe(OTHER)).hardware_serial).toBe(OTHER);
  });

  it('the Wi-Fi serial of an enrolled phone is refused (409 PHONE_ALREADY_ENROLLED) and writes nothing; another phone is taken', async () => {
    const host = await newHost('柜台主机');
    const first = await report(host, USB);
    expect(first.status).toBe(200);
    const before = {
      phones: await rows(),
      creds: (await admin.db.selectFrom('device_credentials').select('device_id').execute()).length,
    };

    const again = await report(host, WIFI);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'PHONE_ALREADY_ENROLLED' } });
    // on another host too: still the same handset
    const elsewhere = await report(await newHost('隔壁主机'), WIFI);
    expect(elsewhere.status).toBe(409);
    expect(await rows()).toEqual(before.phones);
    expect((await admin.db.selectFrom('device_credentials').select('device_id').execute()).length).toBe(before.creds);

    // the phone it already enrolled is still answered as itself; a different handset is taken
    expect((await report(host, USB)).status).toBe(200);
    expect((await report(host, OTHER)).status).toBe(200);
    expect(await rows()).toEqual([
      { serial: USB, hardware_serial: USB },
      { serial: OTHER, hardware_serial: OTHER },
    ]);

    // once the operator rejects the enrolled one, the handset may be enrolled under its other serial
    const enrolled = (first.body as { device_id: string }).device_id;
    expect((await op.post(`/api/devices/${enrolled}/reject`)).status).toBe(200);
    expect((await report(host, WIFI)).status).toBe(200);
  });
});
