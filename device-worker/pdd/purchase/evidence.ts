import { randomUUID } from 'node:crypto';
import { postDevicePng } from '../../admin-client';
import type { Logger } from 'pino';
import type { PddProfile } from '../profile';
import { classify } from '../screens';
import type { UiDump } from '../ui-xml';
import { PAYMENT_SCREEN_TEXTS } from './profile';

interface EvidenceMeta {
  taskId: string;
  attemptId: string;
  kind: string;
  capturedAt: string;
}

export interface EvidenceUploader {
  /** the admin's evidence id, or null when the upload failed (logged, never thrown) */
  upload(png: Buffer, meta: EvidenceMeta): Promise<string | null>;
}

/**
 * Screenshots to the admin evidence store (`POST /api/device/evidence`, device Bearer). A
 * failed upload is logged and answered with null: evidence must never stop a purchase before
 * the fence, nor make anything after it repeat.
 */
export function httpEvidenceUploader(opts: {
  adminUrl: string;
  deviceId: string;
  token: string;
  log: Logger;
  timeoutMs?: number;
}): EvidenceUploader {
  return {
    async upload(png, meta) {
      try {
        const fields = {
          upload_key: `${meta.attemptId}:${meta.kind}:${randomUUID().slice(0, 8)}`.slice(0, 128),
          task_id: meta.taskId,
          attempt_id: meta.attemptId,
          kind: meta.kind,
          captured_at: meta.capturedAt,
        };
        const res = await postDevicePng(opts, '/api/device/evidence', fields, png, opts.timeoutMs ?? 15_000);
        const body = (await res.json().catch(() => null)) as { evidence_id?: unknown } | null;
        if (!res.ok || typeof body?.evidence_id !== 'string') {
          opts.log.warn({ status: res.status, kind: meta.kind, taskId: meta.taskId }, 'evidence upload refused');
          return null;
        }
        return body.evidence_id;
      } catch (err) {
        opts.log.warn({ err: (err as Error).message, kind: meta.kind, taskId: meta.taskId }, 'evidence upload failed');
        return null;
      }
    },
  };
}

/**
 * Whether any node of the dump shows a payment word (立即支付, the cashier's title, and `extra`),
 * in its text or its content-desc: a payment sheet leaves its words in the dump whatever is drawn
 * over it.
 */
export function showsPaymentText(dump: UiDump, profile: PddProfile, extra: readonly string[] = []): boolean {
  const paying = [...PAYMENT_SCREEN_TEXTS, profile.purchase.text.cashierTitle, ...extra];
  return dump.nodes.some((n) => paying.some((t) => n.text.includes(t) || n.contentDesc.includes(t)));
}

/**
 * Whether the screen a dump shows may be photographed: only PDD's own screens, never its cashier
 * or a payment hand-off (a payment page is never stored or uploaded, docs/architecture.md §4.3),
 * nor another app (the launcher, a payment app, anything whose root is not PDD). No dump, or one
 * that matches no single screen, is not proof: no screenshot.
 *
 * Asked of the session's last dump (the screen the flow just proved, with no input since) before
 * a picture, and of the first dump after it before the picture is kept (./camera.ts).
 */
export function screenMayBeCaptured(dump: UiDump | null, profile: PddProfile): boolean {
  if (!dump || dump.root.packageName !== profile.pkg) return false;
  // a dialog over the cashier still leaves the payment sheet in the picture
  if (showsPaymentText(dump, profile)) return false;
  try {
    const kind = classify(dump, profile).kind;
    return kind !== 'cashier' && kind !== 'payment_handoff' && kind !== 'launcher';
  } catch {
    return false;
  }
}
