import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { Logger } from '../admin/config/logger';
import { startAdmin, type AdminHandle, type AdminOptions } from '../admin/server';
import { installTemporalRuntime } from '../admin/temporal/runtime';
import { allocateNamespace } from './namespaces';

installTemporalRuntime(testLogger('temporal-sdk'));

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

export function sharedTemporal(): { address: string; workflowBundlePath: string } {
  const address = process.env.CMAUTOBUY_TEST_TEMPORAL_ADDRESS;
  const workflowBundlePath = process.env.CMAUTOBUY_TEST_WORKFLOW_BUNDLE;
  if (!address || !workflowBundlePath) throw new Error('no shared Temporal server: run through jest without CMAUTOBUY_TEST_NO_TEMPORAL');
  return { address, workflowBundlePath };
}

export interface TestAdmin extends AdminHandle {
  namespace: string;
  dataDir: string;
}

/** A real admin (HTTP + worker + SQLite file) on a free port, in its own Temporal namespace. */
export async function startTestAdmin(overrides: Partial<AdminOptions> = {}): Promise<TestAdmin> {
  const { address, workflowBundlePath } = sharedTemporal();
  const namespace = overrides.temporal?.namespace ?? allocateNamespace();
  const dataDir = overrides.dataDir ?? tempDataDir('admin');
  const admin = await startAdmin({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    temporal: { address, namespace },
    log: testLogger('admin'),
    workflowBundlePath,
    ...overrides,
  });
  if (admin.worker) await admin.worker.ready;
  return Object.assign(admin, { namespace, dataDir });
}

export async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: unknown; headers: Headers }> {
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
  return getJson(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
