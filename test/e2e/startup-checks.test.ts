import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Connection } from '@temporalio/client';
import { z } from 'zod';
import { ConfigError } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import {
  temporalConnectOptions,
  temporalConnection,
  temporalEnvShape,
  type TemporalSetup,
} from '../../temporal/connection';
import { registerNamespace, retentionDaysOf } from '../../temporal/namespace';
import { SEARCH_ATTRIBUTE_NAMES } from '../../temporal/search-attributes';
import { checkTemporalAtStartup } from '../../temporal/startup-checks';
import { sharedTemporal, tempDataDir, testLogger } from '../harness';
import { allocateNamespace } from '../namespaces';

const ROOT = path.resolve(__dirname, '../..');
const KEYWORD = 2; // temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD

/**
 * Start-up checks of temporal/startup-checks.ts against the run's real dev server: a cluster
 * that lacks the namespace or the search attributes is refused with the commands that fix it;
 * the embedded server gets them created; the retention is 30 days.
 */
describe('Temporal start-up checks', () => {
  let address: string;
  let connection: Connection;
  const setup = (namespace: string, embedded: boolean, retentionDays = 30): TemporalSetup => ({
    address,
    namespace,
    embedded,
    retentionDays,
  });

  /** a namespace registered the way an operator would before reading the README: no attributes, a day's retention */
  async function bareNamespace(): Promise<string> {
    const namespace = `startup-${randomUUID().slice(0, 8)}`;
    await registerNamespace(connection.workflowService, namespace, 1);
    // the server answers for a new namespace once its registry has picked it up
    for (;;) {
      try {
        await connection.operatorService.listSearchAttributes({ namespace });
        return namespace;
      } catch {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  async function keywordAttributes(namespace: string): Promise<string[]> {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    return Object.entries(customAttributes ?? {})
      .filter(([name, type]) => (SEARCH_ATTRIBUTE_NAMES as readonly string[]).includes(name) && type === KEYWORD)
      .map(([name]) => name)
      .sort();
  }

  beforeAll(async () => {
    address = sharedTemporal().address;
    connection = await Connection.connect({ address });
  });
  afterAll(async () => connection?.close());

  it('gives the dev server namespaces a 30-day retention, not the dev server default of a day', async () => {
    const namespace = allocateNamespace();
    expect(retentionDaysOf(await connection.workflowService.describeNamespace({ namespace }))).toBe(30);
  });

  it('refuses an external cluster whose namespace lacks the search attributes, printing the exact commands', async () => {
    const namespace = await bareNamespace();
    const refusal = checkTemporalAtStartup({
      temporal: setup(namespace, false),
      log: testLogger(),
      checkRetention: true,
    });
    await expect(refusal).rejects.toBeInstanceOf(ConfigError);
    const message = await refusal.catch((err: Error) => err.message);
    for (const name of SEARCH_ATTRIBUTE_NAMES) {
      expect(message).toContain(
        `temporal operator search-attribute create --namespace ${namespace} --name ${name} --type Keyword`,
      );
    }
    // checked, not fixed: nothing was registered on the cluster
    expect(await keywordAttributes(namespace)).toEqual([]);
  });

  it('refuses an external cluster without the namespace, with the namespace command first', async () => {
    const namespace = `startup-missing-${randomUUID().slice(0, 8)}`;
    const message = await checkTemporalAtStartup({
      temporal: setup(namespace, false),
      log: testLogger(),
      checkRetention: true,
    }).then(
      () => 'accepted',
      (err: Error) => err.message,
    );
    const lines = message.split('\n').map((l) => l.trim());
    const create = lines.indexOf(`temporal operator namespace create --namespace ${namespace} --retention 30d`);
    expect(create).toBeGreaterThan(0);
    expect(lines.slice(create + 1)).toEqual(
      SEARCH_ATTRIBUTE_NAMES.map(
        (n) => `temporal operator search-attribute create --namespace ${namespace} --name ${n} --type Keyword`,
      ),
    );
  });

  it('refuses the admin process itself before it listens, with the commands on its output', () => {
    const namespace = `startup-admin-${randomUUID().slice(0, 8)}`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'workers/main-admin.ts')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 90_000,
      env: {
        ...process.env,
        CMAUTOBUY_TEMPORAL_ADDRESS: address,
        CMAUTOBUY_TEMPORAL_NAMESPACE: namespace,
        CMAUTOBUY_DATA_DIR: tempDataDir('startup-admin'),
        CMAUTOBUY_ADMIN_PORT: '0',
        CMAUTOBUY_ADMIN_PASSWORD: 'startup-check-password',
      },
    });
    expect(r.status).toBe(1);
    expect(r.stdout).not.toMatch(/ADMIN READY/);
    expect(r.stderr).toContain(`temporal operator namespace create --namespace ${namespace} --retention 30d`);
    expect(r.stderr).toContain(
      `temporal operator search-attribute create --namespace ${namespace} --name TaskStatus --type Keyword`,
    );
  });

  it('on the embedded server creates the missing search attributes and sets the retention', async () => {
    const namespace = await bareNamespace();
    expect(retentionDaysOf(await connection.workflowService.describeNamespace({ namespace }))).toBe(1);
    await expect(
      checkTemporalAtStartup({ temporal: setup(namespace, true, 45), log: testLogger(), checkRetention: true }),
    ).resolves.toBe('ok');
    expect(await keywordAttributes(namespace)).toEqual([...SEARCH_ATTRIBUTE_NAMES].sort());
    expect(retentionDaysOf(await connection.workflowService.describeNamespace({ namespace }))).toBe(45);
    // and a second start finds everything in place
    await expect(
      checkTemporalAtStartup({ temporal: setup(namespace, false, 45), log: testLogger(), checkRetention: true }),
    ).resolves.toBe('ok');
  });

  it('on the embedded server creates a missing namespace with the retention', async () => {
    const namespace = `startup-new-${randomUUID().slice(0, 8)}`;
    await expect(
      checkTemporalAtStartup({ temporal: setup(namespace, true), log: testLogger(), checkRetention: true }),
    ).resolves.toBe('ok');
    expect(retentionDaysOf(await connection.workflowService.describeNamespace({ namespace }))).toBe(30);
  });
});

describe('CMAUTOBUY_TEMPORAL_API_KEY', () => {
  const SECRET = `tk-${randomUUID()}`;
  const parse = (env: Record<string, string>) => temporalConnection(z.object(temporalEnvShape).parse(env));

  it('reaches the connection options of clients and workers, and turns TLS on', () => {
    const settings = parse({ CMAUTOBUY_TEMPORAL_ADDRESS: 'ns.tmprl.example:7233', CMAUTOBUY_TEMPORAL_API_KEY: SECRET });
    expect(temporalConnectOptions(settings)).toEqual({ address: 'ns.tmprl.example:7233', tls: {}, apiKey: SECRET });
    expect(
      temporalConnectOptions(
        parse({ CMAUTOBUY_TEMPORAL_ADDRESS: 'ns.tmprl.example:7233', CMAUTOBUY_TEMPORAL_TLS: '1' }),
      ),
    ).not.toHaveProperty('apiKey');
  });

  it('is refused over plain gRPC', () => {
    expect(() => parse({ CMAUTOBUY_TEMPORAL_API_KEY: SECRET, CMAUTOBUY_TEMPORAL_TLS: '0' })).toThrow(ConfigError);
  });

  it('never reaches the logs, not even when a check fails with it or the settings are logged', async () => {
    const out = new PassThrough();
    let written = '';
    out.on('data', (c: Buffer) => (written += c.toString()));
    const logDir = tempDataDir('api-key-logs');
    const log = createLogger({ name: 'api-key', level: 'trace', stdout: out, logDir });
    const settings = {
      ...parse({ CMAUTOBUY_TEMPORAL_API_KEY: SECRET }),
      address: sharedTemporal().address,
      namespace: 'cmautobuy',
    };
    // TLS towards the plaintext test server: the connection fails and the failure is logged
    await expect(
      checkTemporalAtStartup({ temporal: settings, log, checkRetention: true, connectTimeoutMs: 2_000 }),
    ).resolves.toBe('unreachable');
    log.info({ temporal: settings }, 'settings');
    await new Promise((r) => setTimeout(r, 200));
    expect(written).toMatch(/Temporal not reachable at start/);
    expect(written).toContain('[redacted]');
    expect(written).not.toContain(SECRET);
    const fileText = fs.readFileSync(path.join(logDir, 'api-key.log'), 'utf8');
    expect(fileText).not.toContain(SECRET);
  });
});
