import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isUtcTimestamp, nowUtc } from '../../domain/time';
import { writeTransaction, type AdminDb } from '../db/database';
import type { EvidenceAssetsTable } from '../db/tables/evidence';
import { conflict, invalidInput } from '../../domain/api-error';
import { EVIDENCE_KINDS } from './limits';
import { decodeFully } from './png';
import { Semaphore } from './semaphore';
import { removeQuietly, sweepStaleUploads, type ReceivedFile } from './upload-file';

const idText = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/, 'letters, digits and . _ : / -, at most 128');

/** The text fields of `POST /api/device/evidence` (docs/security.md "Evidence"). */
const evidenceFieldsSchema = z.object({
  upload_key: idText,
  sha256: z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits'),
  task_id: idText,
  attempt_id: idText,
  // a hold frame has no attempt: it comes through its own route, keyed by its hold
  kind: z.enum(EVIDENCE_KINDS).exclude(['HOLD_FRAME']),
  captured_at: z.string().refine(isUtcTimestamp, 'UTC, YYYY-MM-DDTHH:MM:SSZ'),
  /** optional: when sent, must equal the bytes received */
  byte_size: z.coerce.number().int().positive().optional(),
});
export type EvidenceFields = z.infer<typeof evidenceFieldsSchema>;

/** The text fields of `POST /api/device/hold-frames`: the hold is named by its `since`. */
const holdFrameFieldsSchema = z.object({
  upload_key: idText,
  sha256: z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits'),
  hold_since: z.string().refine(isUtcTimestamp, 'UTC, YYYY-MM-DDTHH:MM:SSZ'),
  captured_at: z.string().refine(isUtcTimestamp, 'UTC, YYYY-MM-DDTHH:MM:SSZ'),
  byte_size: z.coerce.number().int().positive().optional(),
});
export type HoldFrameFields = z.infer<typeof holdFrameFieldsSchema>;

/** What a stored row says, whichever route it came through. */
interface CanonicalFields {
  upload_key: string;
  sha256: string;
  task_id: string;
  attempt_id: string;
  kind: string;
  captured_at: string;
  byte_size?: number | undefined;
}

/**
 * A hold frame's row in place of a task and an attempt: the device and the hold's start, so the
 * frames of one hold are one group and never match a task's evidence.
 */
function holdFrameOwner(deviceId: string, holdSince: string): { task_id: string; attempt_id: string } {
  return { task_id: `hold:${deviceId}`, attempt_id: holdSince };
}

export interface EvidenceAssetView {
  evidence_id: string;
  upload_key: string;
  task_id: string;
  attempt_id: string;
  kind: string;
  sha256: string;
  byte_size: number;
  width_px: number;
  height_px: number;
  captured_at: string;
  created_at: string;
}

function toView(row: EvidenceAssetsTable): EvidenceAssetView {
  return {
    evidence_id: row.id,
    upload_key: row.upload_key,
    task_id: row.task_id,
    attempt_id: row.attempt_id,
    kind: row.kind,
    sha256: row.sha256,
    byte_size: row.byte_size,
    width_px: row.width_px,
    height_px: row.height_px,
    captured_at: row.captured_at,
    created_at: row.created_at,
  };
}

const STORAGE_KEY_RE = /^[0-9a-f]{64}\.png$/;

/** Same device + upload_key is the same asset only if every canonical field is the same too. */
function sameUpload(row: EvidenceAssetsTable, f: CanonicalFields): boolean {
  return (
    row.sha256 === f.sha256 &&
    row.task_id === f.task_id &&
    row.attempt_id === f.attempt_id &&
    row.kind === f.kind &&
    row.captured_at === f.captured_at
  );
}

function replayOrConflict(row: EvidenceAssetsTable, f: CanonicalFields): { asset: EvidenceAssetView; created: false } {
  if (!sameUpload(row, f)) {
    throw conflict(
      'EVIDENCE_UPLOAD_KEY_CONFLICT',
      `upload_key ${f.upload_key} was already used by this device for different evidence`,
      {
        evidence_id: row.id,
      },
    );
  }
  return { asset: toView(row), created: false };
}

/**
 * The private screenshot store (docs/architecture.md §5.4): content-addressed files in one directory that
 * nothing serves statically, and a DB row written only after the file is complete and in place.
 */
export class EvidenceStore {
  // Two full decodes at a time bound memory (a 16 MP image is ~64 MiB decoded) on a 2-core host.
  private readonly decodes = new Semaphore(2);

  constructor(
    private readonly db: AdminDb,
    readonly dir: string,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // One admin writes this directory; at its start no upload is in flight, so every temp
    // file left is from a crash or a kill and would otherwise stay forever.
    sweepStaleUploads(dir);
  }

  /** A ZodError for fields that do not fit: admin/http answers it as VALIDATION_FAILED, naming them. */
  parseFields(raw: Record<string, string>): EvidenceFields {
    return evidenceFieldsSchema.parse(raw);
  }

  parseHoldFrameFields(raw: Record<string, string>): HoldFrameFields {
    return holdFrameFieldsSchema.parse(raw);
  }

  /**
   * A frame of a held phone, stored as evidence is; `assertHeld` refuses it, checked before the
   * decode and again in the transaction that inserts the row, unless the phone is held by that hold.
   */
  async commitHoldFrame(
    deviceId: string,
    fields: HoldFrameFields,
    file: ReceivedFile,
    assertHeld: (trx: AdminDb) => Promise<void>,
  ): Promise<{ asset: EvidenceAssetView; created: boolean }> {
    const { hold_since, ...rest } = fields;
    const canonical = { ...rest, ...holdFrameOwner(deviceId, hold_since), kind: 'HOLD_FRAME' };
    return this.save(deviceId, canonical, file, assertHeld);
  }

  /** A purchase attempt's screenshot, for its own open attempt only. */
  async commit(
    deviceId: string,
    fields: EvidenceFields,
    file: ReceivedFile,
  ): Promise<{ asset: EvidenceAssetView; created: boolean }> {
    return this.save(deviceId, fields, file, (trx) => this.assertOpenOwnAttempt(trx, deviceId, fields));
  }

  /**
   * Verifies a received file against the declared fields, moves it to its content address and
   * records it. Temp file → hash (done while streaming) → verify → decode → rename → DB row.
   */
  private async save(
    deviceId: string,
    fields: CanonicalFields,
    file: ReceivedFile,
    assertOwner: (trx: AdminDb) => Promise<void>,
  ): Promise<{ asset: EvidenceAssetView; created: boolean }> {
    try {
      if (file.sha256 !== fields.sha256) {
        throw invalidInput('EVIDENCE_SHA256_MISMATCH', 'the file does not match the declared sha256', {
          declared: fields.sha256,
          received: file.sha256,
        });
      }
      if (fields.byte_size !== undefined && fields.byte_size !== file.byteSize) {
        throw invalidInput('EVIDENCE_SIZE_MISMATCH', 'the file does not match the declared byte_size', {
          declared: fields.byte_size,
          received: file.byteSize,
        });
      }
      const existing = await this.find(deviceId, fields.upload_key);
      if (existing) return replayOrConflict(existing, fields);
      // Checked before the costly decode, and again in the transaction that inserts the row.
      await assertOwner(this.db);

      const bytes = await fs.promises.readFile(file.tmpPath);
      await this.decodes.run(() => decodeFully(bytes, file.header));

      const storageKey = `${file.sha256}.png`;
      // rename is atomic; when the content is already there, the same bytes replace the same bytes.
      await fs.promises.rename(file.tmpPath, path.join(this.dir, storageKey));
      await this.syncDir();

      return await writeTransaction(this.db, async (trx) => {
        const raced = await trx
          .selectFrom('evidence_assets')
          .selectAll()
          .where('uploaded_by_device_id', '=', deviceId)
          .where('upload_key', '=', fields.upload_key)
          .executeTakeFirst();
        if (raced) return replayOrConflict(raced, fields);
        try {
          await assertOwner(trx);
        } catch (err) {
          // the attempt finished while the image was decoded: leave no file nobody points at
          const shared = await trx
            .selectFrom('evidence_assets')
            .select('id')
            .where('storage_key', '=', storageKey)
            .executeTakeFirst();
          if (!shared) await removeQuietly(path.join(this.dir, storageKey));
          throw err;
        }
        const row: EvidenceAssetsTable = {
          id: crypto.randomUUID(),
          upload_key: fields.upload_key,
          task_id: fields.task_id,
          attempt_id: fields.attempt_id,
          kind: fields.kind,
          privacy_tier: 'INTERNAL_RAW',
          sha256: file.sha256,
          byte_size: file.byteSize,
          content_type: 'image/png',
          width_px: file.header.width,
          height_px: file.header.height,
          storage_key: storageKey,
          uploaded_by_device_id: deviceId,
          captured_at: fields.captured_at,
          created_at: nowUtc(),
        };
        await trx.insertInto('evidence_assets').values(row).execute();
        return { asset: toView(row), created: true };
      });
    } finally {
      await removeQuietly(file.tmpPath); // gone already when renamed
    }
  }

  /**
   * A phone attaches evidence only to an open purchase attempt it runs itself: a token for
   * phone A can never add pictures to phone B's task, nor invent a task, nor add to the
   * record of an attempt that has finished.
   */
  private async assertOpenOwnAttempt(trx: AdminDb, deviceId: string, fields: EvidenceFields): Promise<void> {
    const attempt = await trx
      .selectFrom('purchase_attempts')
      .select(['id', 'finished_at'])
      .where('id', '=', fields.attempt_id)
      .where('task_id', '=', fields.task_id)
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    if (!attempt) {
      throw conflict(
        'EVIDENCE_ATTEMPT_UNKNOWN',
        'no purchase attempt with this task_id and attempt_id runs on this device',
        {
          task_id: fields.task_id,
          attempt_id: fields.attempt_id,
        },
      );
    }
    if (attempt.finished_at !== null) {
      throw conflict('EVIDENCE_ATTEMPT_FINISHED', 'this purchase attempt has finished; its evidence is closed', {
        task_id: fields.task_id,
        attempt_id: fields.attempt_id,
        finished_at: attempt.finished_at,
      });
    }
  }

  async find(deviceId: string, uploadKey: string): Promise<EvidenceAssetsTable | undefined> {
    return this.db
      .selectFrom('evidence_assets')
      .selectAll()
      .where('uploaded_by_device_id', '=', deviceId)
      .where('upload_key', '=', uploadKey)
      .executeTakeFirst();
  }

  /** For operators: the row and an open stream of its file, or undefined. */
  async open(id: string): Promise<{ row: EvidenceAssetsTable; stream: fs.ReadStream } | undefined> {
    const row = await this.db.selectFrom('evidence_assets').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    if (!STORAGE_KEY_RE.test(row.storage_key)) throw new Error(`evidence ${id} has an invalid storage key`);
    const handle = await fs.promises.open(path.join(this.dir, row.storage_key), 'r');
    return { row, stream: handle.createReadStream() };
  }

  private async syncDir(): Promise<void> {
    const handle = await fs.promises.open(this.dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
