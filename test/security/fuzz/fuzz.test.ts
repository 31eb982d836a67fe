import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { sql } from 'kysely';
import { WORKBOOK_LIMITS } from '../../../admin/catalog/xlsx';
import { dataPaths } from '../../../platform/data-dir';
import {
  getJson,
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  type OperatorClient,
  type TestAdmin,
  type TestDevice,
} from '../../harness';
import { seedAttempt } from '../evidence-client';
import { productRow, repeated, sharedStrings, workbookParts, worksheet, zip, type ZipPart } from '../hostile-xlsx';
import { MULTIPART_TYPE, multipartBody, type Part } from '../multipart-body';
import { realPng } from '../png-fixtures';
import { rawRequest, requestHead, uploadTemps } from '../raw-http';

/**
 * A bounded, deterministic fuzz of every route family (docs/security.md "Threat model"): a few
 * hundred generated requests — cut multipart bodies, huge fields, bad UTF-8 and percent-
 * encoding, wrong types, extreme numbers — each asserted to answer below 500, to leave no
 * upload temp file, and, when refused, to have written nothing.
 */
const SEED = 0x5ec13;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = mulberry32(SEED);
const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  '%',
  '%E0%A4%A',
  '\ud800',
  '😀'.repeat(50),
  '\u202e\u0635',
  "' OR 1=1 --",
  '"; DROP TABLE tasks; --',
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '%2e%2e%2f%2e%2e%2f',
  'NaN',
  '1e309',
  '-0',
  '9007199254740993',
  '0x1f',
  '__proto__',
  'constructor',
  '\\\\',
  '\r\n\r\n',
];
const NASTY_NUMBERS = [0, -1, 1.5, -0.0001, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, Number.MIN_VALUE];

function junkString(): string {
  const r = rand();
  if (r < 0.1) return 'x'.repeat(int(1000, 200_000)); // huge field
  if (r < 0.2) return String.fromCharCode(...Array.from({ length: int(1, 40) }, () => int(0, 0xffff)));
  return pick(NASTY_STRINGS);
}

function junkValue(depth = 0): unknown {
  const r = rand();
  if (r < 0.35) return junkString();
  if (r < 0.6) return pick(NASTY_NUMBERS);
  if (r < 0.68) return pick([true, false, null]);
  if (depth > 3) return [];
  if (r < 0.8) return Array.from({ length: int(0, 4) }, () => junkValue(depth + 1));
  if (r < 0.85) {
    let deep: unknown = 1;
    for (let i = 0; i < 60; i++) deep = { a: deep };
    return deep;
  }
  return junkObject(depth + 1);
}

const FIELD_NAMES = [
  'title',
  'pdd_goods_url',
  'url',
  'options',
  'pdd_options',
  'quantity',
  'max_total_price_cent',
  'task_id',
  'version',
  'tasks',
  'outcome',
  'order_no',
  'pdd_order_no',
  'syb_order_no',
  'color',
  'size',
  'sku_id',
  'username',
  'password',
  'name',
  'execution_mode',
  'serial',
  'app_version',
  '__proto__',
];

function junkObject(depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = int(0, 5); i > 0; i--) out[pick(FIELD_NAMES)] = junkValue(depth);
  return out;
}

/** A JSON body, or something that only claims to be one: invalid JSON, bad UTF-8, a bare scalar. */
function junkJsonBody(): Buffer {
  const r = rand();
  if (r < 0.6) return Buffer.from(JSON.stringify(junkObject()), 'utf8');
  if (r < 0.7) return Buffer.from(JSON.stringify(junkValue()) ?? 'null', 'utf8');
  if (r < 0.8) return Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]); // {"a":"<bad UTF-8>"}
  if (r < 0.9) return Buffer.from(pick(['{', '[1,', '{"a":}', 'nul', '{"a":1}{"b":2}', '\u0000']), 'utf8');
  return Buffer.alloc(0);
}

/** Percent-encodes every byte but letters and digits (a lone surrogate becomes U+FFFD's bytes). */
const pct = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`,
    )
    .join('');

/** A path segment with bad percent-encoding, traversal, NULs or plain junk. */
function junkSegment(): string {
  const r = rand();
  if (r < 0.3)
    return pick(['%', '%zz', '%E0%A4%A', '%C0%AF', '%00', '..%2f..%2f', '%2e%2e', '%ff%fe', '%F0%9F%98', '-', '0']);
  if (r < 0.6) return pct(junkString().slice(0, 300)).replaceAll('%ef%bf%bd', '%ff');
  return String(int(0, 2 ** 31)) + pick(['', '.png', '.js', '%20']);
}

function junkQuery(keys: string[]): string {
  const parts = keys
    .filter(() => rand() < 0.7)
    .map((k) => `${k}=${pick([junkSegment(), String(pick(NASTY_NUMBERS)), pct(junkString().slice(0, 600))])}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

function junkMultipart(fileField: string): { body: Buffer; type: string } {
  const parts: Part[] = [];
  for (let i = int(0, 4); i > 0; i--)
    parts.push({
      name: pick(['upload_key', 'sha256', 'task_id', 'attempt_id', 'kind', 'captured_at', 'byte_size', 'x']),
      value: junkString().slice(0, int(0, 5000)),
    });
  const r = rand();
  const data =
    r < 0.3
      ? realPng(int(1, 64), int(1, 64), int(1, 99))
      : r < 0.5
        ? Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Array.from({ length: int(0, 2000) }, () => int(0, 255))])
        : Buffer.from(Array.from({ length: int(0, 4000) }, () => int(0, 255)));
  parts.splice(int(0, parts.length), 0, {
    name: rand() < 0.85 ? fileField : 'other',
    filename: pick(['a.png', 'shopee.xlsx', '../../x', '']),
    type: pick(['image/png', 'application/octet-stream', 'text/plain']),
    data,
  });
  let body = multipartBody(parts, { close: rand() < 0.5 });
  if (rand() < 0.4) body = body.subarray(0, int(0, body.length)); // cut anywhere
  const type =
    rand() < 0.9
      ? MULTIPART_TYPE
      : pick(['multipart/form-data', 'multipart/form-data; boundary=', 'application/json', 'text/plain']);
  return { body, type };
}

interface Case {
  family: string;
  method: string;
  target: string;
  as: 'operator' | 'device' | 'anonymous';
  body?: Buffer;
  contentType?: string;
}

function generateCases(): Case[] {
  const cases: Case[] = [];
  const add = (n: number, make: () => Case) => {
    for (let i = 0; i < n; i++) cases.push(make());
  };
  const json = (): Pick<Case, 'body' | 'contentType'> => ({
    body: junkJsonBody(),
    contentType:
      rand() < 0.9
        ? 'application/json'
        : pick(['text/plain', 'application/json; charset=latin1', 'application/x-www-form-urlencoded']),
  });
  const method = () => pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);

  add(40, () => ({
    family: 'static',
    method: pick(['GET', 'HEAD']),
    target: `/${Array.from({ length: int(1, 4) }, junkSegment).join('/')}`,
    as: 'anonymous',
  }));
  add(20, () => ({ family: 'session', method: 'POST', target: '/api/session', as: 'anonymous', ...json() }));
  add(25, () => ({
    family: 'tasks',
    method: 'GET',
    target: `/api/tasks${junkQuery(['status', 'q', 'cursor', 'limit'])}`,
    as: 'operator',
  }));
  add(35, () => ({
    family: 'tasks',
    method: 'POST',
    target: pick([
      '/api/tasks',
      '/api/tasks/start',
      `/api/tasks/${junkSegment()}/${pick(['cancel', 'reset', 'mark-paid', 'resolve', junkSegment()])}`,
    ]),
    as: 'operator',
    ...json(),
  }));
  add(10, () => ({ family: 'tasks', method: 'GET', target: `/api/tasks/${junkSegment()}`, as: 'operator' }));
  add(20, () => ({
    family: 'shopee',
    method: 'GET',
    target: `/api/shopee/products${junkQuery(['q', 'cursor', 'limit', 'link', 'parse_failed', 'collect_state'])}`,
    as: 'operator',
  }));
  add(30, () => ({
    family: 'shopee',
    method: pick(['PUT', 'DELETE', 'POST', 'GET']),
    target: pick([
      `/api/shopee/products/${junkSegment()}`,
      `/api/shopee/products/${junkSegment()}/pdd-link`,
      `/api/shopee/products/${junkSegment()}/skus`,
      `/api/shopee/skus/${junkSegment()}`,
    ]),
    as: 'operator',
    ...json(),
  }));
  add(30, () => ({
    family: 'shopee-import',
    method: 'POST',
    target: '/api/shopee/imports',
    as: 'operator',
    ...((m) => ({ body: m.body, contentType: m.type }))(junkMultipart('file')),
  }));
  add(25, () => ({
    family: 'pdd',
    method: pick(['GET', 'DELETE', 'POST']),
    target: pick([
      `/api/pdd/products${junkQuery(['q', 'cursor', 'limit', 'collect_state'])}`,
      `/api/pdd/products/${junkSegment()}`,
      `/api/pdd/products/${junkSegment()}/collect`,
    ]),
    as: 'operator',
    ...json(),
  }));
  add(15, () => ({
    family: 'mappings',
    method: pick(['PUT', 'DELETE', 'GET']),
    target: `/api/mappings/${junkSegment()}`,
    as: 'operator',
    ...json(),
  }));
  add(15, () => ({
    family: 'device-register',
    method: 'POST',
    target: '/api/device/register',
    as: 'device',
    ...json(),
  }));
  add(35, () => ({
    family: 'device-evidence',
    method: 'POST',
    target: '/api/device/evidence',
    as: 'device',
    ...((m) => ({ body: m.body, contentType: m.type }))(junkMultipart('file')),
  }));
  add(15, () => ({
    family: 'evidence',
    method: 'GET',
    target: `/api/evidence/${junkSegment()}`,
    as: pick(['operator', 'device', 'anonymous'] as const),
  }));
  add(10, () => ({
    family: 'system',
    method: pick(['GET', 'POST']),
    target: pick([`/api/devices${junkQuery(['x'])}`, '/api/system/checks', '/api/me']),
    as: 'operator',
    ...json(),
  }));
  add(25, () => ({
    family: 'any',
    method: method(),
    target: `/api/${junkSegment()}/${junkSegment()}`,
    as: pick(['operator', 'device', 'anonymous'] as const),
    ...json(),
  }));
  return cases;
}

describe('fuzz: every route family, a few hundred hostile requests', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let device: TestDevice;
  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    device = await issueTestDevice(admin);
    await seedAttempt(admin.db, device.deviceId);
  });
  afterAll(async () => {
    await admin?.close();
  });

  const changes = async () =>
    Number((await sql<{ n: number }>`select total_changes() as n`.execute(admin.db)).rows[0]!.n);
  const loginFailures = async () =>
    (await admin.db.selectFrom('audit_log').select('id').where('action', '=', 'session.login_failed').execute()).length;
  const lastSeen = async () =>
    (await admin.db.selectFrom('sessions').select('last_seen_at').execute()).map((s) => s.last_seen_at).join();

  it('answers every one below 500, leaves no temp file, and writes nothing for a refused one', async () => {
    const cases = generateCases();
    expect(cases.length).toBeGreaterThanOrEqual(300);
    const evidenceDir = dataPaths(admin.dataDir).evidence;
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    for (const c of cases) {
      const before = { changes: await changes(), failures: await loginFailures(), seen: await lastSeen() };
      const headers: Record<string, string | number> = {};
      if (c.as === 'operator')
        Object.assign(headers, { Cookie: op.sessionCookie ?? '', 'X-CSRF-Token': op.csrfToken ?? '' });
      if (c.as === 'device') headers.Authorization = device.authorization;
      if (c.body !== undefined && c.method !== 'GET' && c.method !== 'HEAD') {
        headers['Content-Type'] = c.contentType ?? 'application/json';
        headers['Content-Length'] = c.body.length;
      }
      const sendsBody = headers['Content-Length'] !== undefined;
      const res = await rawRequest(
        admin.url,
        requestHead(c.method, c.target, admin.url, headers),
        sendsBody ? c.body : undefined,
      );
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const label = `${c.family} ${c.method} ${c.target.slice(0, 120)}`;
      if (res.status === 0 || res.status >= 500) problems.push(`${label} → ${res.status} ${res.body.slice(0, 200)}`);
      if (res.status >= 400) {
        // A refused request writes nothing; the only rows allowed are the audit of a failed
        // login and the session's once-a-minute last_seen_at refresh.
        const after = { changes: await changes(), failures: await loginFailures(), seen: await lastSeen() };
        const allowed = after.failures - before.failures + (after.seen === before.seen ? 0 : 1);
        if (after.changes - before.changes > allowed)
          problems.push(`${label} → ${res.status} but wrote ${after.changes - before.changes} row(s)`);
      }
      if (uploadTemps(evidenceDir).length > 0) {
        // cleanup runs after the answer: give it a moment, then it must be gone
        await new Promise((r) => setTimeout(r, 200));
        if (uploadTemps(evidenceDir).length > 0) problems.push(`${label} left ${uploadTemps(evidenceDir).join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect((await getJson(`${admin.url}/healthz`)).status).toBe(200);
    if (process.env.CMAUTOBUY_FUZZ_REPORT)
      console.log(
        JSON.stringify({
          seed: SEED,
          requests: cases.length,
          statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
        }),
      );
  }, 300_000);
});

/**
 * Hostile workbooks (docs/security.md "Imports"), each built by hand in a few milliseconds and
 * small on the wire: parts that lie about their size, shared-string tables built to fill the
 * admin's memory, and sheets placed before their strings (which exceljs spooled to a temp file
 * it never removed on a refusal). Each must be refused with a 4xx, write nothing, leave no temp
 * file, and keep the admin's memory within the budget docs/security.md states.
 */
function hostileWorkbooks(): Array<{ family: string; name: string; file: Buffer; status: number; code: string }> {
  const M = 1 << 20;
  const strings = (unit: string, times: number) => sharedStrings(repeated(unit, times));
  const book = (...parts: ZipPart[]) => zip([...workbookParts(), ...parts]);
  const lie = (part: ZipPart, declared: number): ZipPart => ({ ...part, declared });
  const tooMany = WORKBOOK_LIMITS.maxSharedStrings + 1;
  return [
    {
      family: 'lying zip sizes',
      name: 'shared strings declare 100 bytes, inflate to ~5 GB',
      file: book(worksheet(productRow(4)), lie(strings(`<si><t>${'a'.repeat(1000)}</t></si>`, 5_000_000), 100)),
      status: 413,
      code: 'IMPORT_UNPACKED_TOO_LARGE',
    },
    {
      family: 'lying zip sizes',
      name: 'worksheet declares 1 KB, inflates to ~1 GB of rows',
      file: book(lie(worksheet(repeated(productRow(4), 10_000_000)), 1024), sharedStrings(['t'])),
      status: 413,
      code: 'IMPORT_UNPACKED_TOO_LARGE',
    },
    {
      family: 'lying zip sizes',
      name: 'declares 150 MB (under the bound), inflates to ~2 GB',
      file: book(
        worksheet(productRow(4)),
        lie(strings(`<si><t>b</t><rPh><t>${'b'.repeat(4000)}</t></rPh></si>`, 500_000), 150 * M),
      ),
      status: 413,
      code: 'IMPORT_UNPACKED_TOO_LARGE',
    },
    {
      family: 'lying zip sizes',
      name: 'parts declare 4 GB in all',
      file: book(lie(worksheet(productRow(4)), 0xfffffffe), sharedStrings(['t'])),
      status: 413,
      code: 'IMPORT_UNPACKED_TOO_LARGE',
    },
    {
      family: 'shared-string bombs',
      name: `${tooMany} one-letter strings`,
      file: book(worksheet(productRow(4)), strings('<si><t>a</t></si>', tooMany)),
      status: 413,
      code: 'IMPORT_TOO_MANY_STRINGS',
    },
    {
      family: 'shared-string bombs',
      name: '20 strings of a million characters',
      file: book(worksheet(productRow(4)), strings(`<si><t>${'漢'.repeat(M)}</t></si>`, 20)),
      status: 413,
      code: 'IMPORT_TOO_MANY_STRINGS',
    },
    {
      family: 'shared-string bombs',
      name: 'phonetic runs padding strings past the element bound',
      file: book(
        worksheet(productRow(4)),
        strings(`<si><t>a</t>${`<rPh sb="0" eb="1"><t>${'x'.repeat(1000)}</t></rPh>`.repeat(5000)}</si>`, 20),
      ),
      status: 400,
      code: 'IMPORT_CELL_TOO_LONG',
    },
    {
      family: 'shared-string bombs',
      name: 'a string left open',
      file: book(worksheet(productRow(4)), strings(`<si><t>${'c'.repeat(1000)}`, 20_000)),
      status: 400,
      code: 'IMPORT_CELL_TOO_LONG',
    },
    {
      family: 'spool-then-refuse',
      name: 'sheet before its strings, one row over the cap',
      file: book(worksheet(repeated(productRow(4), WORKBOOK_LIMITS.maxRows)), sharedStrings(['t'])),
      status: 400,
      code: 'IMPORT_TOO_MANY_ROWS',
    },
    {
      family: 'spool-then-refuse',
      name: 'sheet before its strings, a long cell far down',
      file: book(
        worksheet(
          `${productRow(4).repeat(50_000)}<row><c t="inlineStr"><is><t>${'d'.repeat(WORKBOOK_LIMITS.maxCellChars + 1)}</t></is></c></row>`,
        ),
        sharedStrings(['t']),
      ),
      status: 400,
      code: 'IMPORT_CELL_TOO_LONG',
    },
    {
      family: 'spool-then-refuse',
      name: 'sheet before its strings, a row that never ends',
      file: book(worksheet(repeated('<row><c t="inlineStr"><is><t>e</t></is></c>', 2_000_000)), sharedStrings(['t'])),
      status: 400,
      code: 'IMPORT_CELL_TOO_LONG',
    },
    {
      family: 'spool-then-refuse',
      name: 'a cell pointing past the shared strings',
      file: book(worksheet(`${productRow(4)}${productRow(99)}`), sharedStrings(['t'])),
      status: 400,
      code: 'INVALID_XLSX',
    },
  ];
}

/** Files os.tmpdir() holds that a workbook library would have spooled (exceljs: `tmp-*`). */
const spooled = () => new Set(fs.readdirSync(os.tmpdir()).filter((f) => /^tmp-/.test(f)));

describe('fuzz: hostile workbooks and slow clients', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
  });
  afterAll(async () => {
    await admin?.close();
  });

  const changes = async () =>
    Number((await sql<{ n: number }>`select total_changes() as n`.execute(admin.db)).rows[0]!.n);

  it('refuses every one with its 4xx, writes nothing, spools nothing and stays within its memory budget', async () => {
    const cases = hostileWorkbooks();
    for (const c of cases)
      expect({ name: c.name, small: c.file.length < 25 * 1024 * 1024 }).toEqual({ name: c.name, small: true });
    const tmpBefore = spooled();
    const idle = process.memoryUsage().rss;
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const problems: string[] = [];
    try {
      for (const c of cases) {
        const before = await changes();
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(c.file)]), 'shopee.xlsx');
        const res = await op.post('/api/shopee/imports', form);
        const code = (res.body as { error?: { code?: string } }).error?.code;
        if (res.status !== c.status || code !== c.code)
          problems.push(`${c.family}: ${c.name} → ${res.status} ${code ?? ''}, expected ${c.status} ${c.code}`);
        if ((await changes()) !== before) problems.push(`${c.family}: ${c.name} wrote rows`);
        const left = [...spooled()].filter((f) => !tmpBefore.has(f));
        if (left.length > 0) problems.push(`${c.family}: ${c.name} left ${left.join(', ')} in ${os.tmpdir()}`);
      }
    } finally {
      clearInterval(sampler);
    }
    if (process.env.CMAUTOBUY_FUZZ_REPORT)
      console.log(
        JSON.stringify({ workbooks: cases.length, peak_rss_above_idle_mib: Math.round((peak - idle) / 1048576) }),
      );
    expect(problems).toEqual([]);
    expect(await admin.db.selectFrom('shopee_products').select('goods_id').execute()).toEqual([]);
    // generous: the budget is 300 MiB above idle for the admin alone; this process is the admin
    expect(Math.round((peak - idle) / 1024 / 1024)).toBeLessThanOrEqual(300);
    expect((await getJson(`${admin.url}/healthz`)).status).toBe(200);
  }, 300_000);

  it('cuts clients that trickle their head or body, and keeps answering everyone else meanwhile', async () => {
    const url = new URL(admin.url);
    // 15 slow logins, as the probe sent them: 1 byte every 5 s, some in the head, some in the body
    const head = (body: number) =>
      requestHead('POST', '/api/session', admin.url, { 'Content-Type': 'application/json', 'Content-Length': body });
    const slow = Array.from({ length: 15 }, (_, i) => {
      const body = `${'{"username":"admin","password":"'.padEnd(38, 'x')}"}`;
      const text = `${head(body.length).replaceAll('\n', '\r\n')}${body}`;
      return new Promise<{ status: number; cut: boolean }>((resolve) => {
        const socket = net.connect(Number(url.port), url.hostname);
        const got: Buffer[] = [];
        // even: the head trickles (cut by the 10 s head timeout); odd: the head whole, then the body trickles (30 s)
        let sent = i % 2 === 0 ? 0 : text.length - body.length;
        if (sent > 0) socket.write(text.slice(0, sent));
        const drip = setInterval(() => {
          if (sent < text.length && !socket.destroyed) socket.write(text[sent++]!);
        }, 5000);
        socket.on('data', (c: Buffer) => got.push(c));
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearInterval(drip);
          const m = /^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(got).toString('latin1'));
          resolve({ status: m ? Number(m[1]) : 0, cut: sent < text.length });
        });
      });
    });
    // meanwhile the admin answers
    for (let i = 0; i < 3; i++) expect((await getJson(`${admin.url}/healthz`)).status).toBe(200);
    const results = await Promise.all(slow);
    // every one was cut before it finished sending, with a 408 or a plain close — never a 5xx
    expect(results.filter((r) => !r.cut)).toEqual([]);
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect((await getJson(`${admin.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
