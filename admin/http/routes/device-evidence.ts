import Router from '@koa/router';
import type { Context } from 'koa';
import { invalidInput, unsupported } from '../../../domain/api-error';
import { auditRequest, markAudited } from '../../audit/audit';
import { actorOf, deviceOf } from '../../auth/principal';
import { EVIDENCE_LIMITS } from '../../evidence/limits';
import { receiveEvidenceUpload } from '../../evidence/receive';
import { removeQuietly, screenshotTooLarge } from '../../evidence/upload-file';
import type { AppDeps } from '../deps';

/**
 * `POST /api/device/evidence` (device Bearer, multipart: `file` + text fields). The identity
 * gate has authenticated the device before this runs; nothing of the body is read before.
 */
export function deviceEvidenceRoutes(deps: AppDeps): Router {
  const store = deps.security.evidence;
  const router = new Router({ prefix: '/api/device' });
  router.post('/evidence', async (ctx) => {
    const device = deviceOf(ctx);
    await withPngUpload(ctx, store.dir, async (upload) => {
      const fields = store.parseFields(upload.fields);
      const result = await store.commit(device.deviceId, fields, fileOf(upload));
      if (result.created) {
        await auditRequest(ctx, deps.db, actorOf(ctx), {
          action: 'evidence.upload',
          target: { kind: 'evidence', id: result.asset.evidence_id },
          details: { task_id: result.asset.task_id, attempt_id: result.asset.attempt_id, kind: result.asset.kind },
        });
      } else {
        markAudited(ctx);
      }
      ctx.status = result.created ? 201 : 200;
      ctx.body = result.asset;
    });
  });
  return router;
}

type Upload = Awaited<ReturnType<typeof receiveEvidenceUpload>>;

/**
 * A device's PNG upload (multipart: `file` + text fields), for `use` to check and store; its
 * temporary file is gone afterwards, stored or not. A body declared larger than a screenshot may
 * be is refused before one byte of it is read.
 */
export async function withPngUpload(ctx: Context, dir: string, use: (upload: Upload) => Promise<void>): Promise<void> {
  if (!ctx.is('multipart/form-data'))
    throw unsupported('UNSUPPORTED_MEDIA_TYPE', 'send multipart/form-data with the PNG in the field "file"');
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > EVIDENCE_LIMITS.maxBytes + EVIDENCE_LIMITS.maxEnvelopeBytes) {
    // Not one byte of that body is wanted: answer and drop the connection.
    ctx.set('Connection', 'close');
    throw screenshotTooLarge();
  }
  const upload = await receiveEvidenceUpload(ctx.req, dir);
  try {
    await use(upload);
  } finally {
    await removeQuietly(upload.file?.tmpPath);
  }
}

/** The upload's PNG, once its fields were read; EVIDENCE_FILE_MISSING without one. */
export function fileOf(upload: Upload): NonNullable<Upload['file']> {
  if (!upload.file) throw invalidInput('EVIDENCE_FILE_MISSING', 'send the PNG in the field "file"');
  return upload.file;
}
