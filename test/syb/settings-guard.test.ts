import { sybSettingsInput } from '../../admin/syb/account';
import { checkSybAddress } from '../../admin/syb/address';
import { syncSybOrders } from '../../admin/syb/sync';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { shipment, startSim, taipeiAt } from './helpers';

/**
 * The SYB password goes only where it was given (docs/syb-protocol.md "The account"). Every
 * server here is on loopback: refusals are asserted at the settings call, and no sync is ever
 * started against a refused address (no request may leave this machine).
 */
describe('SYB account: where the password may go', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let home: Awaited<ReturnType<typeof startSim>>;
  let other: Awaited<ReturnType<typeof startSim>>;
  let creds: { username: string; password: string };

  beforeAll(async () => {
    home = await startSim([shipment(1, taipeiAt(0, '08:00:00'), [{ productId: '55500000001', spec: '黑色,M' }])]);
    other = await startSim([]);
    creds = await home.control.credentials();
    // as under `npm start`: the account comes from the environment
    admin = await startTestAdmin({ runWorker: false, syb: { url: home.url, ...creds } });
    op = await loginOperator(admin);
  });
  afterAll(async () => {
    await admin?.close();
    await home?.close();
    await other?.close();
  });

  const settings = async () => (await op.get('/api/syb/settings')).body as Record<string, unknown>;
  const logins = async (sim: typeof home) =>
    (await sim.control.requests()).filter((r) => r.path === '/api/auth/login').length;

  it('a new URL without the password drops the held password: the next sync sends it nowhere', async () => {
    await syncSybOrders(admin.syb);
    expect(await logins(home)).toBe(1);
    const res = await op.put('/api/syb/settings', { url: other.url });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url: other.url, password_set: false, password_required: true, configured: false });
    await expect(syncSybOrders(admin.syb)).rejects.toMatchObject({ code: 'SYB_NOT_CONFIGURED' });
    expect(await logins(other)).toBe(0);
    expect(await logins(home)).toBe(1);
    // Entered again for the new address, it goes there.
    expect((await op.put('/api/syb/settings', { password: creds.password })).body).toMatchObject({ configured: true });
    await syncSybOrders(admin.syb);
    expect(await logins(other)).toBe(1);
  });

  it('a new user name without the password drops it too; URL, name and password together keep it', async () => {
    expect((await op.put('/api/syb/settings', { username: 'someone-else' })).body).toMatchObject({
      password_set: false,
      configured: false,
    });
    const both = await op.put('/api/syb/settings', {
      url: home.url,
      username: creds.username,
      password: creds.password,
    });
    expect(both.body).toMatchObject({ url: home.url, password_set: true, password_required: false, configured: true });
    // the same URL again changes nothing: the password stays
    expect((await op.put('/api/syb/settings', { url: home.url })).body).toMatchObject({ password_set: true });
  });

  it('refuses addresses the password must not go to, and control characters, writing nothing', async () => {
    const before = await settings();
    const audits = async () =>
      (await admin.db.selectFrom('audit_log').select('id').where('action', '=', 'syb.settings.set').execute()).length;
    const auditsBefore = await audits();
    const refused: Array<[Record<string, string>, string]> = [
      [{ url: 'http://8.8.8.8' }, 'SYB_URL_REFUSED'], // plain http off this machine
      [{ url: 'https://169.254.169.254/latest' }, 'SYB_URL_REFUSED'], // cloud metadata
      [{ url: 'https://[::ffff:169.254.169.254]' }, 'SYB_URL_REFUSED'],
      [{ url: 'https://[fe80::1]' }, 'SYB_URL_REFUSED'], // link-local
      [{ url: 'https://10.1.2.3' }, 'SYB_URL_REFUSED'], // private
      [{ url: 'https://192.168.1.10' }, 'SYB_URL_REFUSED'],
      [{ url: 'https://172.16.0.5' }, 'SYB_URL_REFUSED'],
      [{ url: 'https://0.0.0.0' }, 'SYB_URL_REFUSED'],
      [{ url: `http://user:pw@${new URL(home.url).host}` }, 'SYB_URL_REFUSED'], // user info
      [{ url: 'ftp://127.0.0.1' }, 'VALIDATION_FAILED'],
      [{ url: `${home.url}\u0000` }, 'CONTROL_CHARACTER'],
      [{ username: 'a\u0000b' }, 'CONTROL_CHARACTER'],
      [{ username: 'a\r\nX-Injected: 1' }, 'CONTROL_CHARACTER'],
      [{ password: 'pw\u0000' }, 'CONTROL_CHARACTER'],
      [{ password: 'pw\u001b[2J' }, 'CONTROL_CHARACTER'],
    ];
    for (const [body, code] of refused) {
      const res = await op.put('/api/syb/settings', body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect(res.body).toMatchObject({ error: { code } });
    }
    expect(await settings()).toEqual(before);
    expect(await audits()).toBe(auditsBefore);
  });

  it('refuses text-direction controls and lone surrogates in each field with CONTROL_CHARACTER, writing nothing', async () => {
    const before = await settings();
    const audits = async () =>
      (await admin.db.selectFrom('audit_log').select('id').where('action', '=', 'syb.settings.set').execute()).length;
    const auditsBefore = await audits();
    const hostile: Array<[string, string]> = [
      ['\u202e', 'U+202E'], // right-to-left override: 'moc.elpmaxe' shown as 'example.com'
      ['\u2066', 'U+2066'], // left-to-right isolate
      ['\u200f', 'U+200F'], // right-to-left mark
      ['\ud800', 'a lone surrogate'], // high half alone
      ['x\udc00', 'a lone surrogate'], // low half alone
      ['\t', 'U+0009'], // tab: the text rule allows it, a setting does not
    ];
    const fields: Array<[string, (bad: string) => string]> = [
      ['url', (bad) => `${home.url}/${bad}`],
      ['username', (bad) => `${creds.username}${bad}`],
      ['password', (bad) => `${creds.password}${bad}`],
    ];
    for (const [field, value] of fields)
      for (const [bad, named] of hostile) {
        const res = await op.put('/api/syb/settings', { [field]: value(bad) });
        expect([field, named, res.status]).toEqual([field, named, 400]);
        expect(res.body).toMatchObject({ error: { code: 'CONTROL_CHARACTER' } });
        // the message names the character, never the value (it may be the password)
        expect(JSON.stringify(res.body)).toContain(named);
        expect(JSON.stringify(res.body)).not.toContain(creds.password);
      }
    // in a key too, before the schema's unknown-key refusal
    expect((await op.put('/api/syb/settings', { 'url\u202e': home.url })).body).toMatchObject({
      error: { code: 'CONTROL_CHARACTER' },
    });
    expect(await settings()).toEqual(before);
    expect(await audits()).toBe(auditsBefore);
    // the schema refuses the same on its own (a caller that skips the body walk)
    for (const field of ['url', 'username', 'password'])
      expect(sybSettingsInput.safeParse({ [field]: `${home.url}\u202e` }).success).toBe(false);
    // a surrogate pair is text, not a lone half: a user name with an emoji is kept
    expect(sybSettingsInput.parse({ username: '顺运宝\ud83d\ude00' })).toEqual({ username: '顺运宝😀' });
  });

  it('CMAUTOBUY_SYB_ALLOW_PRIVATE=1 lets a private address in, never link-local or metadata', async () => {
    await expect(checkSybAddress('https://10.1.2.3')).rejects.toThrow(/private/);
    process.env.CMAUTOBUY_SYB_ALLOW_PRIVATE = '1';
    try {
      await expect(checkSybAddress('https://10.1.2.3')).resolves.toBeUndefined();
      await expect(checkSybAddress('https://[fd12::1]')).resolves.toBeUndefined();
      await expect(checkSybAddress('https://169.254.169.254')).rejects.toThrow(/link-local/);
      await expect(checkSybAddress('http://10.1.2.3')).rejects.toThrow(/https/); // still https only
    } finally {
      delete process.env.CMAUTOBUY_SYB_ALLOW_PRIVATE;
    }
    // loopback: http and https both fine (the simulator), by name too
    await expect(checkSybAddress('http://127.0.0.1:8090')).resolves.toBeUndefined();
    await expect(checkSybAddress('http://[::1]:8090')).resolves.toBeUndefined();
    await expect(checkSybAddress('https://127.0.0.1')).resolves.toBeUndefined();
    await expect(checkSybAddress('https://8.8.8.8')).resolves.toBeUndefined(); // a public address (not contacted)
  });

  it('the environment password is bound to the environment address: a stored other URL never gets it', async () => {
    const second = await startTestAdmin({ runWorker: false, syb: { url: other.url, ...creds } });
    try {
      // an address saved on 设置 earlier (e.g. before a restart) is not the one the env password was given for
      await second.db
        .insertInto('app_settings')
        .values({ setting_key: 'syb.url', value_json: JSON.stringify(home.url), updated_at: '2026-12-01T00:00:00Z' })
        .execute();
      expect(await second.syb.view()).toMatchObject({ url: home.url, password_set: false, configured: false });
      await other.control.clearRequests();
      await home.control.clearRequests();
      await expect(syncSybOrders(second.syb)).rejects.toMatchObject({ code: 'SYB_NOT_CONFIGURED' });
      expect(await logins(home)).toBe(0);
      expect(await logins(other)).toBe(0);
    } finally {
      await second.close();
    }
  });
});
