import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { PNG } from 'pngjs';
import { dataPaths } from '../../platform/data-dir';
import { decodeFully, inspectHeader } from '../../admin/evidence/png';
import { WORKBOOK_LIMITS } from '../../admin/catalog/xlsx';
import {
  getJson,
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  tempDataDir,
  type OperatorClient,
  type TestAdmin,
  type TestDevice,
} from '../harness';
import { defaultAttempt, seedAttempt, uploadEvidence } from './evidence-client';
import { productRow, repeated, sharedStrings, workbookParts, worksheet, zip } from './hostile-xlsx';
import { MULTIPART_TYPE, multipartBody } from './multipart-body';
import { realPng, sha256Hex } from './png-fixtures';
import { eventually, openFilesBelow, rawRequest, requestHead, uploadTemps } from './raw-http';

const IMPORT_HEADER = ['商品ID', '商品名稱', '商品規格ID', '商品規格'];

async function workbook(rows: Array<Array<string | number>>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('商品');
  ws.addRow(IMPORT_HEADER);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('hostile input never takes the admin down (regressions)', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  let device: TestDevice;
  let evidenceDir: string;

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    device = await issueTestDevice(admin);
    await seedAttempt(admin.db, device.deviceId);
    evidenceDir = dataPaths(admin.dataDir).evidence;
  });
  afterAll(async () => {
    await admin?.close();
  });

  const healthy = async () => expect((await getJson(`${admin.url}/healthz`)).status).toBe(200);
  const operatorHeaders = () => ({ Cookie: op.sessionCookie ?? '', 'X-CSRF-Token': op.csrfToken ?? '' });
  const productCount = async () => (await admin.db.selectFrom('shopee_products').select('goods_id').execute()).length;
  const evidenceRows = async () => (await admin.db.selectFrom('evidence_assets').select('id').execute()).length;

  describe('multipart bodies', () => {
    it('an import body that ends inside the file part is a 400, and the admin keeps serving', async () => {
      const body = Buffer.concat([
        Buffer.from(`--x\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n`),
        Buffer.from([0x50, 0x4b, 0x03, 0x04]),
      ]);
      const res = await rawRequest(
        admin.url,
        requestHead('POST', '/api/shopee/imports', admin.url, {
          ...operatorHeaders(),
          'Content-Type': 'multipart/form-data; boundary=x',
          'Content-Length': body.length,
        }),
        body,
      );
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'EXPECTED_MULTIPART' } });
      expect(await productCount()).toBe(0);
      await healthy();
    });

    it('an evidence upload whose field error comes before the file part writes no temp file', async () => {
      const png = realPng(32, 32, 5);
      const { task_id, attempt_id } = defaultAttempt(device.deviceId);
      const body = multipartBody([
        { name: 'upload_key', value: 'dup' },
        { name: 'upload_key', value: 'dup-again' },
        { name: 'sha256', value: sha256Hex(png) },
        { name: 'task_id', value: task_id },
        { name: 'attempt_id', value: attempt_id },
        { name: 'file', filename: 'shot.png', type: 'image/png', data: png },
      ]);
      const res = await rawRequest(
        admin.url,
        requestHead('POST', '/api/device/evidence', admin.url, {
          Authorization: device.authorization,
          'Content-Type': MULTIPART_TYPE,
          'Content-Length': body.length,
        }),
        body,
      );
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'EVIDENCE_DUPLICATE_FIELD' } });
      await eventually('no upload temp file', () => uploadTemps(evidenceDir).length === 0);
      expect(await evidenceRows()).toBe(0);
    });

    it('an evidence body cut inside the file part leaves no temp file and no open descriptor', async () => {
      const png = realPng(200, 200, 6);
      const body = multipartBody(
        [
          { name: 'upload_key', value: 'cut' },
          { name: 'file', filename: 'shot.png', type: 'image/png', data: png },
        ],
        { close: false },
      );
      const res = await rawRequest(
        admin.url,
        requestHead('POST', '/api/device/evidence', admin.url, {
          Authorization: device.authorization,
          'Content-Type': MULTIPART_TYPE,
          'Content-Length': body.length,
        }),
        body,
      );
      expect(res.status).toBe(400);
      await eventually('no upload temp file', () => uploadTemps(evidenceDir).length === 0);
      await eventually('no descriptor open in the evidence dir', () => openFilesBelow(evidenceDir).length === 0);
      await healthy();
    });

    it('a device that hangs up mid-upload leaves no temp file and no open descriptor', async () => {
      const png = realPng(300, 300, 8);
      const body = multipartBody(
        [
          { name: 'upload_key', value: 'gone' },
          { name: 'file', filename: 'shot.png', type: 'image/png', data: png },
        ],
        { close: false },
      );
      await rawRequest(
        admin.url,
        requestHead('POST', '/api/device/evidence', admin.url, {
          Authorization: device.authorization,
          'Content-Type': MULTIPART_TYPE,
          'Content-Length': body.length * 4,
        }),
        body,
        { hangUp: true },
      );
      await eventually('no upload temp file', () => uploadTemps(evidenceDir).length === 0);
      await eventually('no descriptor open in the evidence dir', () => openFilesBelow(evidenceDir).length === 0);
      expect(await evidenceRows()).toBe(0);
      await healthy();
    });
  });

  describe('paths, cursors and bodies', () => {
    it.each([['/%'], ['/%E0%A4%A'], ['/assets/%ff.js'], ['/tasks/%00']])(
      'GET %s is a 400, not a 500',
      async (target) => {
        const res = await rawRequest(admin.url, requestHead('GET', target, admin.url, {}));
        expect(res.status).toBe(400);
        expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'BAD_PATH' } });
      },
    );

    it.each([
      ['/api/tasks?cursor=eyJrIjoibm90anNvbiJ9'],
      ['/api/tasks?cursor=eyJrIjoiWzEsMl0ifQ'],
      ['/api/tasks?cursor=%E0%A4%A'],
      ['/api/shopee/products?cursor=bm90IGpzb24'],
      ['/api/pdd/products?cursor=e30'],
    ])('GET %s is 400 INVALID_CURSOR', async (target) => {
      const res = await op.get(target);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'INVALID_CURSOR' } });
    });

    it('a JSON body over 1 MB is a 413', async () => {
      const res = await op.post('/api/tasks', { title: 'x'.repeat(1024 * 1024 + 10) });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
    });
  });

  describe('bounded imports', () => {
    it('a cell longer than the cap is refused and nothing is written', async () => {
      const file = await workbook([[21000000001, 'x'.repeat(WORKBOOK_LIMITS.maxCellChars + 1), '-', '']]);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file)]), 'shopee.xlsx');
      const res = await op.post('/api/shopee/imports', form);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'IMPORT_CELL_TOO_LONG', details: { row: 2 } } });
      expect(await productCount()).toBe(0);
    });

    it('more rows than the cap are refused and nothing is written', async () => {
      // written by hand: exceljs would take minutes to write this many rows
      const rows = worksheet(repeated(productRow(4), WORKBOOK_LIMITS.maxRows));
      const form = new FormData();
      form.append(
        'file',
        new Blob([new Uint8Array(zip([...workbookParts(), rows, sharedStrings(['t'])]))]),
        'shopee.xlsx',
      );
      const res = await op.post('/api/shopee/imports', form);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'IMPORT_TOO_MANY_ROWS' } });
      expect(await productCount()).toBe(0);
    });

    it('a workbook that declares a huge unpacked size is refused before it is inflated', async () => {
      const file = await workbook([[21000000001, 'ok', '-', '']]);
      // Rewrite each central-directory entry to declare 100 MB uncompressed.
      for (let i = file.length - 22; i >= 0; i--) {
        if (file.readUInt32LE(i) === 0x02014b50) file.writeUInt32LE(100 * 1024 * 1024, i + 24);
      }
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file)]), 'shopee.xlsx');
      const res = await op.post('/api/shopee/imports', form);
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ error: { code: 'IMPORT_UNPACKED_TOO_LARGE' } });
      expect(await productCount()).toBe(0);
    });
  });

  describe('evidence', () => {
    it('decodes a screenshot on a worker thread, never on the event loop', async () => {
      const png = realPng(512, 512, 9);
      const onMainThread = jest.spyOn(PNG.sync, 'read');
      try {
        await decodeFully(png, inspectHeader(png.subarray(0, 33)));
        expect(onMainThread).not.toHaveBeenCalled();
        // and a broken image is still refused from there
        const broken = Buffer.from(png);
        broken.writeUInt8(broken.readUInt8(broken.length - 20) ^ 0xff, broken.length - 20);
        await expect(decodeFully(broken, inspectHeader(broken.subarray(0, 33)))).rejects.toMatchObject({
          kind: 'invalid',
        });
      } finally {
        onMainThread.mockRestore();
      }
    });

    it('evidence for a finished attempt is a 409 and writes nothing', async () => {
      const other = await issueTestDevice(admin, 'finished phone');
      await seedAttempt(admin.db, other.deviceId);
      await admin.db
        .updateTable('purchase_attempts')
        .set({ status: 'STOPPED', finished_at: '2025-01-02T04:00:00Z' })
        .where('device_id', '=', other.deviceId)
        .execute();
      const png = realPng(40, 40, 12);
      const res = await uploadEvidence({ url: admin.url }, other, { file: png, ...defaultAttempt(other.deviceId) });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: { code: 'EVIDENCE_ATTEMPT_FINISHED' } });
      expect(await evidenceRows()).toBe(0);
      expect(fs.existsSync(path.join(evidenceDir, `${sha256Hex(png)}.png`))).toBe(false);
      expect(uploadTemps(evidenceDir)).toEqual([]);
    });
  });

  describe('headers', () => {
    it('the UI and the API carry CSP (self only, no framing), nosniff and no-referrer', async () => {
      for (const p of ['/', '/api/me', '/healthz']) {
        const res = await fetch(`${admin.url}${p}`);
        const csp = res.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("default-src 'self'");
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).not.toMatch(/script-src[^;]*unsafe/);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      }
    });

    it('answers only to the host names it is reached by (DNS rebinding)', async () => {
      const port = new URL(admin.url).port;
      for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, '']) {
        const res = await rawRequest(
          admin.url,
          requestHead('GET', '/healthz', admin.url, {}).replace(/^Host: .*$/m, `Host: ${host}`),
        );
        expect({ host, status: res.status }).toEqual({ host, status: 421 });
      }
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
        const res = await rawRequest(
          admin.url,
          requestHead('GET', '/healthz', admin.url, {}).replace(/^Host: .*$/m, `Host: ${host}`),
        );
        expect({ host, status: res.status }).toEqual({ host, status: 200 });
      }
    });
  });
});

describe('the admin at start', () => {
  it('sweeps upload temp files a crash left behind, and keeps admin.db owner-only', async () => {
    const dataDir = tempDataDir('sweep');
    const evidence = dataPaths(dataDir).evidence;
    fs.mkdirSync(evidence, { recursive: true });
    const stale = path.join(evidence, `.upload-${crypto.randomUUID()}.tmp`);
    const kept = path.join(evidence, 'not-a-temp.txt');
    fs.writeFileSync(stale, 'half a screenshot');
    fs.writeFileSync(kept, 'other');
    const admin = await startTestAdmin({ runWorker: false, dataDir });
    try {
      expect(fs.existsSync(stale)).toBe(false);
      expect(fs.existsSync(kept)).toBe(true);
      for (const f of ['admin.db', 'admin.db-wal', 'admin.db-shm']) {
        const file = path.join(dataDir, f);
        if (fs.existsSync(file))
          expect({ f, mode: (fs.statSync(file).mode & 0o777).toString(8) }).toEqual({ f, mode: '600' });
      }
    } finally {
      await admin.close();
    }
  });
});
