import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { LOWER_THREAD_PRIORITY } from '../../platform/thread-priority';
import type { ApiErrorCode } from '../../domain/api-errors';
import type { ImportFailedRow } from '../../domain/catalog-views';
import { ApiError, unprocessable, type ApiErrorKind } from '../../domain/api-error';
import { CatalogErrors } from './errors';
import type { Column, ParsedImport, ParsedProduct, ParsedSku } from './import-read';

/**
 * What reading one workbook may cost (docs/security.md "Imports"). Reading runs on a thread of
 * its own, so however long it takes the admin keeps answering; these bound what it may take
 * from the machine. `npm run bench`'s 100,000-row, 20 MB export reads in about 3.5 s with this
 * heap (and still reads, slower, within 64 MiB): each bound leaves room many times over that.
 */
export const IMPORT_BUDGET = {
  /** wall-clock time from the thread's start to the last parsed row handed back */
  timeMs: 60_000,
  /** the reading thread's old-generation heap; past it V8 stops the thread, not the admin */
  heapMb: 256,
} as const;

/** rows handed back per message: each is copied into the admin's thread as a task of its own */
const BATCH = 2_000;

/**
 * The thread, as plain JavaScript evaluated from this string, so it starts the same under tsx,
 * jest and a compiled build: it loads the reader (admin/catalog/import-read.ts, or the .js a
 * build made of it — through tsx's require hook when it is TypeScript) and answers one workbook.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
${LOWER_THREAD_PRIORITY}
if (workerData.tsx) require(workerData.tsx);
const { readImport } = require(workerData.reader);
parentPort.once('message', async (bytes) => {
  let parsed;
  try {
    parsed = await readImport(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (err) {
    if (err && err.name === 'ApiError')
      parentPort.postMessage({ refused: { kind: err.kind, code: err.code, message: err.message, details: err.details } });
    else parentPort.postMessage({ failed: String((err && err.stack) || err) });
    return;
  }
  // One batch at a time, each after the admin took the one before: a port delivers every message
  // waiting on it in one go, and fifty batches taken at once held the admin's loop for 280 ms.
  const taken = () => new Promise((resolve) => parentPort.once('message', resolve));
  const send = async (kind, items) => {
    for (let i = 0; i < items.length; i += workerData.batch) {
      parentPort.postMessage({ kind, items: items.slice(i, i + workerData.batch) });
      await taken();
    }
  };
  await send('products', [...parsed.products]);
  parsed.products.clear();
  await send('skus', [...parsed.skus]);
  parsed.skus.clear();
  await send('failed', parsed.failed);
  parentPort.postMessage({ done: [...parsed.present], orphanGoods: parsed.orphanGoods });
});
`;

/** What the thread sends: a refusal, a failure (a bug: a 500), batches of the result, its end. */
type Message =
  | { refused: { kind: ApiErrorKind; code: ApiErrorCode; message: string; details?: unknown } }
  | { failed: string }
  | { kind: 'products'; items: Array<[string, ParsedProduct]> }
  | { kind: 'skus'; items: Array<[string, ParsedSku]> }
  | { kind: 'failed'; items: ImportFailedRow[] }
  | { done: Column[]; orphanGoods: string[] };

const ext = path.extname(__filename);
const READER = path.join(__dirname, `import-read${ext}`);
const TSX = ext === '.ts' ? require.resolve('tsx/cjs') : undefined;

/** 422, not 413: the file is within every size bound; what reading it costs is refused */
const tooCostly = (message: string, details: { budget: 'time' | 'memory'; limit: number }) =>
  unprocessable(CatalogErrors.IMPORT_TOO_COSTLY, message, details);

/**
 * Reads an uploaded workbook (`readImport`) on a thread of its own, within `budget`: past its
 * time the thread is stopped, past its heap V8 stops it; either way the import is refused with
 * 422 IMPORT_TOO_COSTLY before anything is written, and the admin goes on. A refusal the
 * reader makes itself (INVALID_XLSX, IMPORT_TOO_MANY_ROWS, …) comes back as it was made.
 */
export function readImportInThread(
  bytes: Buffer,
  budget: { timeMs: number; heapMb: number } = IMPORT_BUDGET,
): Promise<ParsedImport> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { reader: READER, tsx: TSX, batch: BATCH },
    resourceLimits: { maxOldGenerationSizeMb: budget.heapMb },
  });
  const parsed: ParsedImport = {
    present: new Set(),
    products: new Map(),
    skus: new Map(),
    failed: [],
    orphanGoods: [],
  };
  return new Promise<ParsedImport>((resolve, reject) => {
    let settled = false;
    const settle = (err: Error | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      void worker.terminate();
      if (err) reject(err);
      else resolve(parsed);
    };
    const deadline = setTimeout(
      () =>
        settle(
          tooCostly(`reading the workbook took longer than ${budget.timeMs / 1000} s; check the file`, {
            budget: 'time',
            limit: budget.timeMs,
          }),
        ),
      budget.timeMs,
    );
    worker.on('message', (m: Message) => {
      if ('refused' in m) settle(new ApiError(m.refused.kind, m.refused.code, m.refused.message, m.refused.details));
      else if ('failed' in m) settle(new Error(`the import reader failed: ${m.failed}`));
      else if ('done' in m) {
        parsed.present = new Set(m.done);
        parsed.orphanGoods = m.orphanGoods;
        settle(undefined);
      } else {
        if (m.kind === 'products') for (const [k, v] of m.items) parsed.products.set(k, v);
        else if (m.kind === 'skus') for (const [k, v] of m.items) parsed.skus.set(k, v);
        else parsed.failed.push(...m.items);
        worker.postMessage('next');
      }
    });
    worker.on('error', (err: Error & { code?: string }) =>
      settle(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? tooCostly(`reading the workbook needed more than ${budget.heapMb} MiB; check the file`, {
              budget: 'memory',
              limit: budget.heapMb,
            })
          : err,
      ),
    );
    worker.on('exit', (code) => settle(new Error(`the import reader stopped (exit ${code})`)));
    // its own copy of the file, moved: `bytes` may be a view into a larger buffer, all of which a
    // clone would copy
    const own = new Uint8Array(bytes);
    worker.postMessage(own, [own.buffer]);
  });
}
