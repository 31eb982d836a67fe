import http from 'node:http';
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
    task_id: u.task_id ?? 'task-1',
    attempt_id: u.attempt_id ?? 'attempt-1',
    kind: u.kind ?? 'SKU_PANEL_GATE_1',
    captured_at: u.captured_at ?? '2025-01-02T03:04:05Z',
  };
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (!u.omit?.includes(k)) form.append(k, v);
  if (!u.omit?.includes('file')) form.append('file', new Blob([new Uint8Array(u.file)], { type: u.mime ?? 'image/png' }), 'shot.png');
  return form;
}

export function uploadEvidence(admin: { url: string }, device: TestDevice, u: EvidenceUpload): Promise<HttpResult> {
  return deviceRequest(admin, device, 'POST', '/api/device/evidence', { body: evidenceForm(u) });
}

/**
 * Sends only the request head (with a body length promised) and waits for the answer: proves
 * the admin decided without reading one byte of the body.
 */
export function headersOnly(url: string, headers: Record<string, string>, method = 'POST'): Promise<{ status: number; body: string }> {
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
