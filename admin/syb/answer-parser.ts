import { Worker } from 'node:worker_threads';
import { SYB_LIMITS } from '../../domain/syb';

/**
 * Parses 顺运宝 answers off the admin's event loop. A hostile answer (a 100,000-line shipment,
 * megabytes of extra fields) costs a JSON.parse of many milliseconds; run on the main thread it
 * would stall every request of the admin, /healthz included. A worker thread parses the text and
 * sends back only the **known** fields (docs/syb-protocol.md), strings cut to one character over
 * their limit (so an over-long value is still seen as one) and at most one line more than
 * `linesPerShipment`: the copy back is bounded whatever the answer held, and unknown fields —
 * the recipient's data among them — never leave the worker.
 *
 * Bytes alone do not bound the work: 31 MB of `[{},{},…]` is ten million objects, more than the
 * thread's heap holds, and a worker thread that reaches its heap limit can take the whole process
 * down with it (V8 aborts while tearing the isolate down). So the worker counts every chunk as it
 * arrives — values, objects and arrays, nesting depth: one linear pass, no parsing — and refuses
 * an answer past `SYB_LIMITS.answerValues` / `answerContainers` / `answerDepth` before
 * `JSON.parse` ever sees it; the budgets keep the worst answer they let through well inside the
 * heap limit (a 100,000-line shipment still parses). A refused answer, and any death of the
 * thread, is an `AnswerTooCostly`; the next answer gets a fresh thread.
 *
 * The worker is plain JavaScript evaluated from this string, so it runs the same under tsx,
 * jest and a compiled build.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const L = workerData;
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
function scalar(v, max) {
  if (typeof v === 'string') return v.length > max ? v.slice(0, max + 1) : v;
  if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean') return v;
  return { unsupported: Array.isArray(v) ? 'array' : typeof v };
}
function line(d) {
  if (!isObj(d)) return { unsupported: Array.isArray(d) ? 'array' : d === null ? 'null' : typeof d };
  return {
    id: scalar(d.id, L.idChars),
    productId: scalar(d.productId, L.productIdChars),
    title: scalar(d.title, L.titleChars),
    spec: scalar(d.spec, L.specChars),
    quantity: scalar(d.quantity, 40),
    price: scalar(d.price, 40),
    imageUrl: scalar(d.imageUrl, L.imageUrlChars),
  };
}
function envelope(root, data) {
  if (!isObj(root)) return { shape: false };
  return { shape: true, code: scalar(root.code, 40), msg: scalar(root.msg, 200), data };
}
const project = {
  login: (root) => envelope(root, isObj(root) && isObj(root.data) ? { token: scalar(root.data.token, 8192) } : null),
  list: (root) => {
    const d = isObj(root) ? root.data : undefined;
    if (!isObj(d) || !Array.isArray(d.list)) return envelope(root, null);
    return envelope(root, {
      pages: scalar(d.pages, 40),
      total: d.list.length,
      ids: d.list.slice(0, L.listIds).map((s) => (isObj(s) ? scalar(s.id, L.idChars) : null)),
    });
  },
  detail: (root) => {
    const d = isObj(root) ? root.data : undefined;
    if (!isObj(d)) return envelope(root, null);
    const details = Array.isArray(d.details) ? d.details : null;
    return envelope(root, {
      id: scalar(d.id, L.idChars),
      code: scalar(d.code, L.idChars),
      orderCode: scalar(d.orderCode, L.idChars),
      created: scalar(d.created, 40),
      lineCount: details ? details.length : null,
      details: details ? details.slice(0, L.linesPerShipment).map(line) : null,
    });
  },
};
// What JSON.parse would build, counted without building it: a value starts at every string (keys
// included), object, array and comma; depth is the open objects and arrays. Bytes inside strings
// are skipped, escapes included, so a quoted '[' counts nothing.
function count(s, bytes) {
  let { inString, escaped, depth } = s;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
      s.values++;
    } else if (c === 0x7b || c === 0x5b) {
      s.values++;
      s.containers++;
      if (++depth > s.maxDepth) s.maxDepth = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c) s.values++;
  }
  Object.assign(s, { inString, escaped, depth });
  if (s.maxDepth > L.answerDepth) return 'nests deeper than ' + L.answerDepth + ' levels';
  if (s.containers > L.answerContainers) return 'holds more than ' + L.answerContainers + ' objects and arrays';
  if (s.values > L.answerValues) return 'holds more than ' + L.answerValues + ' values';
  return null;
}
const streams = new Map();
function parse(id, kind, bytes) {
  let result;
  try {
    result = { ok: true, value: project[kind](JSON.parse(Buffer.from(bytes).toString('utf8'))) };
  } catch (err) {
    result = { ok: false, error: String(err && err.message ? err.message : err).slice(0, 200) };
  }
  parentPort.postMessage({ id, result });
}
parentPort.on('message', (m) => {
  // a streamed answer: its chunks arrive one by one, are counted and joined here, not on the admin's thread
  if (m.chunk) {
    const s = streams.get(m.id);
    if (!s) return;
    const chunk = Buffer.from(m.chunk);
    const refused = count(s, chunk);
    if (!refused) return void s.chunks.push(chunk);
    // answered at once, so the admin stops reading; what was kept is dropped now
    streams.delete(m.id);
    return void parentPort.postMessage({ id: m.id, result: { ok: false, costly: true, error: 'the answer ' + refused } });
  }
  if (m.begin) {
    const s = { chunks: [], inString: false, escaped: false, depth: 0, maxDepth: 0, values: 0, containers: 0 };
    return void streams.set(m.id, s);
  }
  const s = streams.get(m.id);
  streams.delete(m.id);
  if (m.end && s) parse(m.id, m.kind, Buffer.concat(s.chunks));
});
`;

export type Scalar = string | number | boolean | null | undefined | { unsupported: string };

export interface Projected<T> {
  /** false: the answer is JSON but not an object */
  shape: boolean;
  code?: Scalar;
  msg?: Scalar;
  data?: T | null;
}

export interface ProjectedLine {
  unsupported?: string;
  id?: Scalar;
  productId?: Scalar;
  title?: Scalar;
  spec?: Scalar;
  quantity?: Scalar;
  price?: Scalar;
  imageUrl?: Scalar;
}

export interface ProjectedDetail {
  id: Scalar;
  code: Scalar;
  orderCode: Scalar;
  created: Scalar;
  /** how many lines SYB sent; null when `details` is not an array */
  lineCount: number | null;
  details: ProjectedLine[] | null;
}

interface ProjectedList {
  pages: Scalar;
  total: number;
  ids: Scalar[];
}

export interface AnswerKinds {
  login: Projected<{ token: Scalar }>;
  list: Projected<ProjectedList>;
  detail: Projected<ProjectedDetail>;
}

type Result = { ok: true; value: unknown } | { ok: false; error: string; costly?: boolean };

/** An answer refused before parsing (over the value, object or depth budget), or that ended the parser's thread. */
export class AnswerTooCostly extends Error {
  override readonly name = 'AnswerTooCostly';
}

/**
 * One worker thread, started on first use or by `warm()`. Starting a thread costs the main
 * thread a noticeable pause on a loaded machine, so the admin warms it at start rather than in
 * the middle of a sync.
 */
export class AnswerParser {
  private worker: Worker | undefined;
  private next = 0;
  private readonly pending = new Map<number, (r: Result) => void>();

  constructor(
    /** the thread's heap; a test lowers it to see a thread that runs out of memory handled */
    private readonly heapMb = 512,
  ) {}

  /**
   * Parses an answer whose chunks are handed to the worker as they arrive: the admin's thread
   * never holds the whole answer (a 12 MB body joined and copied there cost it a long GC pause).
   * `read` feeds `send` every chunk and resolves when the body ended; when it throws (too big,
   * broken off), the worker drops what it had and the error is passed on. When the worker refuses
   * the answer part-way (too costly to parse), `send` throws `AnswerTooCostly` so the rest is not read.
   */
  async parseStreamed<K extends keyof AnswerKinds>(
    kind: K,
    read: (send: (chunk: Uint8Array) => void) => Promise<void>,
  ): Promise<AnswerKinds[K]> {
    const worker = this.start();
    const id = ++this.next;
    let early: Result | undefined;
    const answered = new Promise<Result>((resolve) => this.pending.set(id, resolve)).then((r) => (early = r));
    worker.postMessage({ id, begin: true });
    try {
      await read((chunk) => {
        if (early) throw new AnswerTooCostly(early.ok ? 'the answer parser answered early' : early.error);
        // its own bytes only (a chunk may be a view into a larger buffer), moved, not cloned
        const own = new Uint8Array(chunk);
        worker.postMessage({ id, chunk: own }, [own.buffer]);
      });
    } catch (err) {
      this.pending.delete(id);
      worker.postMessage({ id, abort: true });
      throw err;
    }
    worker.postMessage({ id, kind, end: true });
    const result = await answered;
    if (!result.ok) throw result.costly ? new AnswerTooCostly(result.error) : new SyntaxError(result.error);
    return result.value as AnswerKinds[K];
  }

  warm(): void {
    this.start();
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { ...SYB_LIMITS, listIds: 1000 },
      // A hostile answer must not take the process's memory with it. The budgets above keep the
      // worst answer they let through far below these (about 300 MB of old generation); the
      // limits are the last guard, not the plan.
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
    });
    worker.unref();
    worker.on('message', (m: { id: number; result: Result }) => {
      this.pending.get(m.id)?.(m.result);
      this.pending.delete(m.id);
    });
    // A thread that dies while it holds answers (out of memory, any crash) is blamed on them; one
    // ended by close() is not. Either way the next answer starts a fresh thread.
    const failAll = (message: string) => {
      const costly = this.worker === worker;
      for (const resolve of this.pending.values()) resolve({ ok: false, error: message.slice(0, 200), costly });
      this.pending.clear();
      if (this.worker === worker) this.worker = undefined;
    };
    worker.on('error', (err) => failAll(`the answer parser's thread failed: ${err.message}`));
    worker.on('exit', (code) => failAll(`the answer parser's thread stopped (${code})`));
    this.worker = worker;
    return worker;
  }
}
