import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { dataPaths } from '../../platform/data-dir';
import { cutText } from '../../domain/text';
import {
  deviceRequest,
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  type OperatorClient,
  type TestAdmin,
  type TestDevice,
} from '../harness';
import { collectedInTestDb } from '../collected';
import { uploadEvidence } from './evidence-client';
import { realPng } from './png-fixtures';
import { rawRequest, requestHead } from './raw-http';

/** Regressions of the second hostile-input probe (docs/security.md "Threat model"). */

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([len, typed, crc]);
}

/** A real screenshot with one more chunk placed right after IHDR. */
function withChunk(png: Buffer, type: string, data: Buffer): Buffer {
  return Buffer.concat([png.subarray(0, 33), pngChunk(type, data), png.subarray(33)]);
}

/** A zlib stream that inflates to `mib` MiB of zeros, about 1 KiB per MiB (never finished: nobody needs its end). */
function zlibBomb(mib: number): Buffer {
  const segment = zlib.deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: mib }, () => segment)]);
}

describe('hostile files and requests, second probe', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let device: TestDevice;
  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false, maxConnectionsPerAddress: 6 });
    op = await loginOperator(admin);
    device = await issueTestDevice(admin);
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('a day that is not on the calendar is a 400, not a 500', async () => {
    for (const day of ['2026-13-45', '2026-02-30', '0000-00-00']) {
      for (const key of ['date_from', 'date_to']) {
        const res = await op.get(`/api/syb/orders?${key}=${day}`);
        expect({ day, key, status: res.status, body: res.body }).toMatchObject({
          day,
          key,
          status: 400,
          body: { error: { code: 'VALIDATION_FAILED' } },
        });
      }
    }
    expect((await op.get('/api/syb/orders?date_from=2026-02-28&date_to=2026-03-01')).status).toBe(200);
  });

  it('text is cut between code points, never inside a surrogate pair', () => {
    const title = `${'a'.repeat(199)}😀tail`;
    expect(title.slice(0, 200)).toMatch(/\ud83d$/); // what the old cut stored: half an emoji
    expect(cutText(title, 200)).toBe('a'.repeat(199));
    expect(cutText(`${'a'.repeat(198)}😀tail`, 200)).toBe(`${'a'.repeat(198)}😀`);
    expect(cutText('short', 200)).toBe('short');
  });

  it('a device name (or task title, or SKU field) with a bidi control is refused and nothing is stored', async () => {
    const before = (await admin.db.selectFrom('device_credentials').select('device_id').execute()).length;
    for (const name of ['phone\u202egnp.exe', '\u2066深圳-01\u2069', 'a\u200fb', 'x\u0085y']) {
      const res = await op.post('/api/devices', { display_name: name });
      expect({ name, status: res.status, body: res.body }).toMatchObject({
        name,
        status: 400,
        body: { error: { code: 'VALIDATION_FAILED' } },
      });
      const renamed = await op.request('PATCH', `/api/devices/${device.deviceId}`, { display_name: name });
      expect({ name, status: renamed.status }).toEqual({ name, status: 400 });
    }
    expect((await admin.db.selectFrom('device_credentials').select('device_id').execute()).length).toBe(before);
    const stored = await admin.db
      .selectFrom('device_credentials')
      .select('display_name')
      .where('device_id', '=', device.deviceId)
      .executeTakeFirstOrThrow();
    expect(stored.display_name).not.toMatch(/[\u202e\u2066\u200f\u0085]/);
    const draft = (title: string) => ({
      type: 'purchase',
      pdd_goods_url: 'https://mobile.yangkeduo.com/goods.html?goods_id=41000000001',
      pdd_options: { 颜色分类: '黑色', 尺码: 'M' },
      quantity: 1,
      max_total_price_cent: 1000,
      title,
    });
    // a draft needs a collect: the goods as the phone shows the simulator's reference goods
    await collectedInTestDb(admin.db, '41000000001', { copyOf: '937122477375' });
    const tasksBefore = (await admin.db.selectFrom('tasks').select('task_id').execute()).length;
    const task = await op.post('/api/tasks', draft('evil\u202etxt.exe'));
    expect({ status: task.status, body: task.body }).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED' } },
    });
    expect((await admin.db.selectFrom('tasks').select('task_id').execute()).length).toBe(tasksBefore);
    expect((await op.post('/api/tasks', draft('西裝外套 黑色'))).status).toBe(201);
    // a plain name with CJK and emoji is still fine
    expect((await op.post('/api/devices', { display_name: '深圳-01 📱' })).status).toBe(201);
  });

  it('/api is matched case-insensitively: an unknown API path is a JSON 404, never the UI page', async () => {
    for (const p of ['/API/NOPE', '/Api/tasks/x/y/z', '//api//nope', '/API']) {
      const res = await op.get(p);
      expect({ p, status: res.status, type: res.headers.get('content-type') }).toMatchObject({
        p,
        status: 404,
        type: expect.stringContaining('application/json'),
      });
    }
    // the device zone too: a phone's request to an unknown path is the API's 404 …
    const asDevice = await deviceRequest(admin, device, 'GET', '/API/DEVICE/x');
    expect({ status: asDevice.status, body: asDevice.body }).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    // … and without a token the gate's empty 401, never the UI page
    const anonymous = await fetch(`${admin.url}/API/DEVICE/x`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain('<html');
  });

  it('list cursors are only those the API issued', async () => {
    await admin.db
      .insertInto('shopee_products')
      .values(
        ['21000000001', '21000000002', '21000000003'].map((goods_id) => ({
          goods_id,
          title: `t${goods_id}`,
          search_text: `t${goods_id}`,
          shopee_status: null,
          main_sku_code: null,
          pdd_goods_url: null,
          pdd_goods_id: null,
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
        })),
      )
      .execute();
    const first = await op.get('/api/shopee/products?limit=2');
    const cursor = (first.body as { next_cursor: string }).next_cursor;
    expect(typeof cursor).toBe('string');
    const next = await op.get(`/api/shopee/products?limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(next.status).toBe(200);
    expect((next.body as { items: unknown[] }).items).toHaveLength(1);
    // what the old cursor format accepted: any base64url JSON {k}, e.g. a key the API never handed out
    const forged = Buffer.from(JSON.stringify({ k: '0' })).toString('base64url');
    const payload = cursor.slice(0, cursor.indexOf('.'));
    const otherKey = Buffer.from(JSON.stringify({ k: '21000000003' })).toString('base64url');
    for (const bad of [forged, `${otherKey}${cursor.slice(cursor.indexOf('.'))}`, `${payload}.AAAA`, 'not-a-cursor']) {
      for (const list of ['/api/shopee/products', '/api/pdd/products', '/api/tasks', '/api/syb/orders']) {
        const res = await op.get(`${list}?cursor=${encodeURIComponent(bad)}`);
        expect({ list, bad: bad.slice(0, 40), status: res.status, body: res.body }).toMatchObject({
          list,
          status: 400,
          body: { error: { code: 'INVALID_CURSOR' } },
        });
      }
    }
  });

  it('evidence whose zTXt/iCCP/iTXt chunks inflate huge is refused and not stored', async () => {
    const evidenceDir = dataPaths(admin.dataDir).evidence;
    const base = realPng(40, 30, 5);
    const compressedText = (keyword: string, zdata: Buffer) =>
      Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0, 0]), zdata]);
    const itxt = Buffer.concat([Buffer.from('Comment', 'latin1'), Buffer.from([0, 1, 0, 0, 0]), zlibBomb(40)]);
    const cases = [
      { name: '200 MB zTXt', png: withChunk(base, 'zTXt', compressedText('Comment', zlibBomb(200))) },
      { name: '40 MB iCCP', png: withChunk(base, 'iCCP', compressedText('icc', zlibBomb(40))) },
      { name: '40 MB iTXt', png: withChunk(base, 'iTXt', itxt) },
    ];
    for (const c of cases) {
      const res = await uploadEvidence(admin, device, { file: c.png });
      expect({ name: c.name, status: res.status }).toEqual({ name: c.name, status: 400 });
      expect(['EVIDENCE_PNG_BOMB', 'EVIDENCE_PNG_INVALID']).toContain(
        (res.body as { error: { code: string } }).error.code,
      );
    }
    expect((await admin.db.selectFrom('evidence_assets').select('id').execute()).length).toBe(0);
    const stored = fs.existsSync(evidenceDir) ? fs.readdirSync(evidenceDir).filter((f) => f.endsWith('.png')) : [];
    expect(stored).toEqual([]);
    // a small honest text chunk is still fine
    const ok = withChunk(base, 'zTXt', compressedText('Software', zlib.deflateSync(Buffer.from('screencap'))));
    expect((await uploadEvidence(admin, device, { file: ok })).status).toBe(201);
    expect(path.isAbsolute(evidenceDir)).toBe(true);
  });

  it('one address holds at most its cap of connections; the next is closed unread', async () => {
    const url = new URL(admin.url);
    const open = (): Promise<net.Socket> =>
      new Promise((resolve, reject) => {
        const s = net.connect(Number(url.port), url.hostname, () => resolve(s));
        s.on('error', reject);
      });
    const closed = (s: net.Socket) =>
      new Promise<string>((resolve) => {
        const got: Buffer[] = [];
        s.on('data', (c: Buffer) => got.push(c));
        s.on('error', () => undefined);
        s.on('close', () => resolve(Buffer.concat(got).toString('latin1')));
      });
    const held = await Promise.all(Array.from({ length: 6 }, open));
    try {
      const extra = await open();
      const answer = closed(extra);
      extra.write(requestHead('GET', '/healthz', admin.url, {}).replaceAll('\n', '\r\n'));
      expect(await answer).toBe('');
      // one of the held ones still gets its answer
      const first = held[0]!;
      const reply = closed(first);
      first.write(requestHead('GET', '/healthz', admin.url, {}).replaceAll('\n', '\r\n'));
      expect(await reply).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      held.forEach((s) => s.destroy());
    }
    // once they are gone the address may connect again
    await new Promise((r) => setTimeout(r, 100));
    expect((await rawRequest(admin.url, requestHead('GET', '/healthz', admin.url, {}))).status).toBe(200);
  });
});
