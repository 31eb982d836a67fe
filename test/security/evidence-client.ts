import http from 'node:http';
import type { AdminDb } from '../../admin/db/database';
import { deviceRequest, type HttpResult, type TestDevice } from '../harness';
import { sha256Hex } from './png-fixtures';

export interface EvidenceUpload {
  file: Buffer;
  mime?: string;
  upload_key?: string;
  sha256?: string;
  task_id?: string;
  attempt_id?: string;
  kind?: string;
  captured_at?: string;
  /** fields to leave out entirely */
  omit?: string[];
}

let counter = 0;

export function evidenceForm(u: EvidenceUpload): FormData {
  const fields: Record<string, string> = {
    upload_key: u.upload_key ?? `key-${process.pid}-${++counter}`,
    sha256: u.sha256 ?? sha256Hex(u.file),
    task_id: u.task_id ?? 'task-unknown',
    attempt_id: u.attempt_id ?? 'attempt-unknown',
    kind: u.kind ?? 'SKU_PANEL_GATE_1',
    captured_at: u.captured_at ?? '2025-01-02T03:04:05Z',
  };
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (!u.omit?.includes(k)) form.append(k, v);
  if (!u.omit?.includes('file'))
    form.append('file', new Blob([new Uint8Array(u.file)], { type: u.mime ?? 'image/png' }), 'shot.png');
  return form;
}

/** The attempt a test phone uploads for by default: `attempt-<device id>` of `task-<device id>`. */
export function defaultAttempt(deviceId: string): { task_id: string; attempt_id: string } {
  return { task_id: `task-${deviceId}`, attempt_id: `attempt-${deviceId}` };
}

/**
 * A real purchase attempt for the phone (task, authorization, attempt rows), because the admin
 * accepts evidence only for an attempt that runs on the uploading device. Idempotent.
 */
export async function seedAttempt(db: AdminDb, deviceId: string): Promise<void> {
  const { task_id: taskId, attempt_id: attemptId } = defaultAttempt(deviceId);
  const at = '2025-01-02T03:04:05Z';
  await db
    .insertInto('tasks')
    .values({
      task_id: taskId,
      task_type: 'purchase',
      status: 'ORDERING',
      version: 1,
      pdd_goods_url: 'https://mobile.yangkeduo.com/goods.html?goods_id=1',
      pdd_goods_id: '1',
      pdd_options: '{"颜色":"黑"}',
      quantity: 1,
      max_total_price_cent: 100,
      execution_mode: 'dry_run',
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const authId = `auth-${attemptId}`;
  await db
    .insertInto('order_authorizations')
    .values({
      id: authId,
      task_id: taskId,
      task_version: 1,
      start_key: authId,
      goods_id: '1',
      pdd_options: '{"颜色":"黑"}',
      quantity: 1,
      max_total_price_cent: 100,
      execution_mode: 'dry_run',
      status: 'CLAIMED',
      workflow_id: `purchase/${taskId}/${authId}`,
      workflow_started_at: at,
      created_by: 'test',
      created_at: at,
      expires_at: '2099-01-01T00:00:00Z',
      closed_at: null,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .insertInto('purchase_attempts')
    .values({
      id: attemptId,
      task_id: taskId,
      authorization_id: authId,
      device_id: deviceId,
      workflow_id: `purchase/${taskId}/${authId}`,
      status: 'RUNNING',
      step: 'preparing',
      timeline_json: '[]',
      started_at: at,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function uploadEvidence(
  admin: { url: string; db?: AdminDb },
  device: TestDevice,
  u: EvidenceUpload,
): Promise<HttpResult> {
  if (admin.db) await seedAttempt(admin.db, device.deviceId);
  return deviceRequest(admin, device, 'POST', '/api/device/evidence', {
    body: evidenceForm({ ...defaultAttempt(device.deviceId), ...u }),
  });
}

/**
 * Sends only the request head (with a body length promised) and waits for the answer: proves
 * the admin decided without reading one byte of the body.
 */
export function headersOnly(
  url: string,
  headers: Record<string, string>,
  method = 'POST',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { 'content-length': '5000000', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}
