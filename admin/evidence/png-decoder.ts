import { Worker } from 'node:worker_threads';
import { LOWER_THREAD_PRIORITY } from '../../platform/thread-priority';

// Plain JavaScript, so the same worker runs under tsx, jest and compiled code alike.
const DECODE_WORKER = `
const { parentPort } = require('node:worker_threads');
const zlib = require('node:zlib');
${LOWER_THREAD_PRIORITY}
const view = (u) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
function decode(job) {
  let inflated;
  try {
    inflated = zlib.inflateSync(view(job.idat), { maxOutputLength: job.expected + 1 });
  } catch (err) {
    return { ok: false, stage: err && err.code === 'ERR_BUFFER_TOO_LARGE' ? 'bomb' : 'zlib', message: '' };
  }
  if (inflated.length > job.expected) return { ok: false, stage: 'bomb', message: '' };
  if (inflated.length < job.expected) return { ok: false, stage: 'short', message: '' };
  inflated = undefined;
  try {
    const { PNG } = require(job.pngjs);
    const d = PNG.sync.read(view(job.file));
    return { ok: true, width: d.width, height: d.height };
  } catch (err) {
    return { ok: false, stage: 'decode', message: String((err && err.message) || err) };
  }
}
parentPort.on('message', (job) => parentPort.postMessage(decode(job)));
`;

export type Decoded =
  | { ok: true; width: number; height: number }
  | { ok: false; stage: 'bomb' | 'zlib' | 'short' | 'decode'; message: string };

/** as many threads as decodes may run at once (the evidence store's semaphore) */
const KEPT_THREADS = 2;
const idle: Worker[] = [];

/**
 * pngjs decodes synchronously: a 16 MP screenshot keeps a thread busy for about a second.
 * That thread is a worker's, never the event loop's, so /healthz and every other request
 * keep answering while screenshots are checked. The worker's heap is capped as well.
 *
 * The threads are kept between images: starting one cost more CPU than decoding a phone's
 * screenshot in it (docs/PERFORMANCE.md), on the cores the operators' requests share. A thread
 * that fails, exits or runs out of its heap on a hostile image is dropped, never reused.
 */
export function decodeInWorker(file: Buffer, idat: Buffer, expected: number): Promise<Decoded> {
  const worker = idle.pop() ?? spawn();
  worker.ref();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (d: Decoded, reusable: boolean) => {
      if (settled) return;
      settled = true;
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reusable && idle.length < KEPT_THREADS) {
        worker.unref();
        idle.push(worker);
      } else void worker.terminate();
      resolve(d);
    };
    const onMessage = (d: Decoded) => settle(d, true);
    const onError = (err: Error) => settle({ ok: false, stage: 'decode', message: err.message }, false);
    const onExit = (code: number) =>
      settle({ ok: false, stage: 'decode', message: `the decoder stopped (exit ${code})` }, false);
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage({
      pngjs: require.resolve('pngjs'),
      expected,
      file: new Uint8Array(file.buffer, file.byteOffset, file.byteLength),
      idat: new Uint8Array(idat.buffer, idat.byteOffset, idat.byteLength),
    });
  });
}

function spawn(): Worker {
  const worker = new Worker(DECODE_WORKER, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 256 } });
  // an idle kept thread that dies (out of memory after its last image) leaves the pool
  worker.once('exit', () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  });
  return worker;
}

/** Ends the kept threads, at the admin's shutdown; a decode still running keeps its own. */
export async function stopPngDecoders(): Promise<void> {
  await Promise.all(idle.splice(0).map((w) => w.terminate()));
}
