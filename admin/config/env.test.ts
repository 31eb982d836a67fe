import { dataPaths } from '../../platform/data-dir';
import { temporalTarget } from '../../temporal/connection';
import { parseEnv } from './env';

describe('environment (README.md, docs/security.md)', () => {
  it('uses the documented defaults', () => {
    const env = parseEnv({});
    expect(env.CMAUTOBUY_ADMIN_PORT).toBe(8080);
    expect(env.CMAUTOBUY_TEMPORAL_PORT).toBe(7233);
    expect(env.CMAUTOBUY_TEMPORAL_UI_PORT).toBe(8233);
    expect(env.CMAUTOBUY_SIM_ADB_PORT).toBe(15037);
    expect(env.CMAUTOBUY_SIM_CONTROL_PORT).toBe(15038);
    expect(env.CMAUTOBUY_SYB_SIM_PORT).toBe(8090);
    expect(env.CMAUTOBUY_DATA_DIR).toBe('./data');
    expect(temporalTarget(env)).toEqual({
      address: '127.0.0.1:7233',
      namespace: 'cmautobuy',
      embedded: true,
      uiUrl: '/temporal',
      uiUpstream: 'http://127.0.0.1:8233/temporal',
    });
  });

  it('sends operators to the Temporal UI it was started with: the URL given, else the embedded UI through the admin, else none', () => {
    expect(temporalTarget(parseEnv({ CMAUTOBUY_TEMPORAL_UI_PORT: '9233' }))).toMatchObject({
      uiUrl: '/temporal',
      uiUpstream: 'http://127.0.0.1:9233/temporal',
    });
    expect(temporalTarget(parseEnv({ CMAUTOBUY_TEMPORAL_ADDRESS: 'temporal.internal:7233' }))).toMatchObject({
      uiUrl: null,
      uiUpstream: null,
    });
    // npm start's admin: the server is an existing one to it, the UI its supervisor's
    expect(
      temporalTarget(
        parseEnv({
          CMAUTOBUY_TEMPORAL_ADDRESS: '127.0.0.1:7233',
          CMAUTOBUY_TEMPORAL_UI_UPSTREAM: 'http://127.0.0.1:8233/temporal',
        }),
      ),
    ).toMatchObject({ uiUrl: '/temporal', uiUpstream: 'http://127.0.0.1:8233/temporal' });
    expect(
      temporalTarget(
        parseEnv({
          CMAUTOBUY_TEMPORAL_ADDRESS: 'temporal.internal:7233',
          CMAUTOBUY_TEMPORAL_UI_URL: 'https://temporal.internal/',
        }),
      ).uiUrl,
    ).toBe('https://temporal.internal');
  });

  it('stops with a message naming the bad variable', () => {
    expect(() => parseEnv({ CMAUTOBUY_ADMIN_PORT: 'eighty' })).toThrow(/CMAUTOBUY_ADMIN_PORT/);
    expect(() => parseEnv({ CMAUTOBUY_TEMPORAL_PORT: '70000' })).toThrow(/CMAUTOBUY_TEMPORAL_PORT/);
    expect(() => parseEnv({ CMAUTOBUY_TEMPORAL_ADDRESS: 'http://x' })).toThrow(/CMAUTOBUY_TEMPORAL_ADDRESS/);
    expect(() => parseEnv({ CMAUTOBUY_ADMIN_PASSWORD: 'short' })).toThrow(/CMAUTOBUY_ADMIN_PASSWORD/);
  });

  it('never echoes a secret value in the error', () => {
    try {
      parseEnv({ CMAUTOBUY_ADMIN_PASSWORD: 'abc' });
      throw new Error('expected a failure');
    } catch (err) {
      expect((err as Error).message).not.toContain('abc');
    }
  });

  it('uses an existing server instead of starting one when an address is given', () => {
    const env = parseEnv({ CMAUTOBUY_TEMPORAL_ADDRESS: 'temporal.internal:7233' });
    expect(temporalTarget(env)).toMatchObject({ address: 'temporal.internal:7233', embedded: false });
  });

  it('lays out the data dir of docs/architecture.md §5 and refuses unsafe device ids', () => {
    const p = dataPaths('/srv/data');
    expect(p.adminDb).toBe('/srv/data/admin.db');
    expect(p.device('sim-phone-1').ledgerDb).toBe('/srv/data/device/sim-phone-1/ledger.db');
    expect(p.device('sim-phone-1').artifacts).toBe('/srv/data/device/sim-phone-1/artifacts');
    expect(() => p.device('../etc')).toThrow(/safe folder name/);
  });
});
