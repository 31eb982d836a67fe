import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { issueDeviceCredential } from '../admin/auth/device-credentials';
import { INITIAL_ADMIN_USERNAME } from '../admin/auth/users';
import type { Logger } from '../platform/logger';
import type { AdminHandle, AdminOptions } from '../admin/server';
import { startAdmin } from '../workers/admin';
import { installPayloadKeys } from '../temporal/codec';
import { newPayloadKeyEntry, PAYLOAD_KEYS_VAR, parsePayloadKeys } from '../temporal/codec/keys';
import { installTemporalRuntime } from '../temporal/runtime';
import { allocateNamespace } from './namespaces';

installTemporalRuntime(testLogger('temporal-sdk'));
// the run's key (test/global-setup.ts): every client and worker a test makes encrypts its payloads
// (a script that imports the harness, such as the bench, makes its own and hands it to its children)
process.env[PAYLOAD_KEYS_VAR] ??= newPayloadKeyEntry();
installPayloadKeys(parsePayloadKeys(process.env[PAYLOAD_KEYS_VAR]));

/** Quiet unless CMAUTOBUY_TEST_LOG is set (e.g. `CMAUTOBUY_TEST_LOG=debug npx jest …`). */
export function testLogger(name = 'test'): Logger {
  return pino({ name, level: process.env.CMAUTOBUY_TEST_LOG ?? 'silent' });
}

let dirCounter = 0;
/** A fresh data dir below the run's temp folder (removed by globalTeardown). */
export function tempDataDir(label = 'data'): string {
  const root = process.env.CMAUTOBUY_TEST_TMP;
  if (!root) throw new Error('CMAUTOBUY_TEST_TMP unset: run tests through jest (globalSetup)');
  const dir = path.join(root, `${label}-${process.pid}-${++dirCounter}-${Date.now()}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export function sharedTemporal(): { address: string; workflowBundlePath: string; uiUrl: string | null } {
  const address = process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS;
  const workflowBundlePath = process.env.CMAUTOBUY_TEST_WORKFLOW_BUNDLE;
  if (!address || !workflowBundlePath)
    throw new Error('no shared Temporal server: run through jest without CMAUTOBUY_TEST_NO_TEMPORAL');
  return { address, workflowBundlePath, uiUrl: process.env.CMAUTOBUY_TEST_TEMPORAL_UI_URL ?? null };
}

export interface TestAdmin extends AdminHandle {
  namespace: string;
  dataDir: string;
}

/** A real admin (HTTP + worker + SQLite file) on a free port, in its own Temporal namespace. */
export async function startTestAdmin(
  overrides: Partial<AdminOptions> & { waitForWorker?: boolean } = {},
): Promise<TestAdmin> {
  const { waitForWorker = true, ...rest } = overrides;
  const { address, workflowBundlePath, uiUrl } = sharedTemporal();
  const namespace = rest.temporal?.namespace ?? allocateNamespace();
  const dataDir = rest.dataDir ?? tempDataDir('admin');
  const admin = await startAdmin({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    temporal: { address, namespace, uiUrl },
    log: testLogger('admin'),
    workflowBundlePath,
    initialAdminPassword: TEST_ADMIN_PASSWORD,
    ...rest,
  });
  if (admin.worker && waitForWorker) await admin.worker.ready;
  return Object.assign(admin, { namespace, dataDir });
}

export async function getJson(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: return the text as is
  }
  return { status: res.status, body, headers: res.headers };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return getJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** The password of operator `admin` in every admin started by `startTestAdmin`. */
export const TEST_ADMIN_PASSWORD = 'test-admin-password-0123';

export interface HttpResult {
  status: number;
  body: unknown;
  headers: Headers;
}

/**
 * An operator's browser, reduced to what the API needs: a cookie jar for the session cookie
 * and the X-CSRF-Token header on every mutating call (pass `{ csrf: false }` to leave it off).
 */
export class OperatorClient {
  private cookie: string | undefined;
  csrfToken: string | undefined;

  constructor(readonly baseUrl: string) {}

  /** Logs in; resolves to the login response so tests can also check failures. */
  async login(username: string, password: string): Promise<HttpResult> {
    const res = await this.request('POST', '/api/session', { username, password }, { csrf: false });
    if (res.status === 200) this.csrfToken = (res.body as { csrf_token: string }).csrf_token;
    return res;
  }

  /** The session cookie as the browser would send it, e.g. to try it on a device route. */
  get sessionCookie(): string | undefined {
    return this.cookie;
  }

  async request(
    method: string,
    urlPath: string,
    body?: unknown,
    opts: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<HttpResult> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (this.cookie) headers.cookie = this.cookie;
    if (method !== 'GET' && method !== 'HEAD' && opts.csrf !== false && this.csrfToken)
      headers['x-csrf-token'] = this.csrfToken;
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await getJson(`${this.baseUrl}${urlPath}`, { method, headers, body: payload });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = (pair ?? '').split('=');
      if (name !== 'cmautobuy_session') continue;
      this.cookie = value ? `${name}=${value}` : undefined;
    }
    return res;
  }

  get(urlPath: string, opts?: { headers?: Record<string, string> }) {
    return this.request('GET', urlPath, undefined, opts);
  }
  post(urlPath: string, body?: unknown, opts?: { csrf?: boolean; headers?: Record<string, string> }) {
    return this.request('POST', urlPath, body ?? {}, opts);
  }
  put(urlPath: string, body?: unknown, opts?: { csrf?: boolean; headers?: Record<string, string> }) {
    return this.request('PUT', urlPath, body ?? {}, opts);
  }
  del(urlPath: string, opts?: { csrf?: boolean; headers?: Record<string, string> }) {
    return this.request('DELETE', urlPath, undefined, opts);
  }
}

/** A logged-in operator client for `admin` (or another user created in the test). */
export async function loginOperator(
  admin: { url: string },
  username = INITIAL_ADMIN_USERNAME,
  password = TEST_ADMIN_PASSWORD,
): Promise<OperatorClient> {
  const client = new OperatorClient(admin.url);
  const res = await client.login(username, password);
  if (res.status !== 200) throw new Error(`login as ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return client;
}

export interface TestDevice {
  deviceId: string;
  token: string;
  /** the value of the Authorization header */
  authorization: string;
}

/** Issues a device credential straight in the admin DB (what `npm run cli -- device issue` does). */
export async function issueTestDevice(admin: Pick<AdminHandle, 'db'>, name = 'test phone'): Promise<TestDevice> {
  const issued = await issueDeviceCredential(admin.db, { kind: 'system', name: 'test' }, name);
  return { ...issued, authorization: `Bearer ${issued.deviceId}.${issued.token}` };
}

/** A request as a device: `Authorization: Bearer <device_id>.<token>`. */
export function deviceRequest(
  admin: { url: string },
  device: Pick<TestDevice, 'authorization'>,
  method: string,
  urlPath: string,
  init: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { authorization: device.authorization, ...(init.headers ?? {}) };
  let body: string | FormData | undefined;
  if (init.body instanceof FormData) body = init.body;
  else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  return getJson(`${admin.url}${urlPath}`, { method, headers, body });
}
