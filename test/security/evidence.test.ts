import fs from 'node:fs';
import path from 'node:path';
import { dataPaths } from '../../platform/data-dir';
import {
  getJson,
  issueTestDevice,
  loginOperator,
  startTestAdmin,
  type OperatorClient,
  type TestAdmin,
  type TestDevice,
} from '../harness';
import { evidenceForm, headersOnly, uploadEvidence, defaultAttempt, seedAttempt } from './evidence-client';
import { craftedPng, decompressionBomb, hugeDimensionsPng, realPng, sha256Hex } from './png-fixtures';

describe('evidence upload and viewing', () => {
  let admin: TestAdmin;
  let device: TestDevice;
  let operator: OperatorClient;
  let evidenceDir: string;

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    device = await issueTestDevice(admin);
    operator = await loginOperator(admin);
    evidenceDir = dataPaths(admin.dataDir).evidence;
  });
  afterAll(async () => {
    await admin?.close();
  });

  const filesOnDisk = () => fs.readdirSync(evidenceDir).sort();
  const rows = () => admin.db.selectFrom('evidence_assets').selectAll().execute();

  describe('refuses bad uploads with a 4xx and leaves nothing on disk or in the DB', () => {
    let before: { files: string[]; rows: number };
    beforeEach(async () => {
      before = { files: filesOnDisk(), rows: (await rows()).length };
    });
    afterEach(async () => {
      expect(filesOnDisk()).toEqual(before.files); // not even a temp file
      expect((await rows()).length).toBe(before.rows);
    });

    const good = realPng();
    const truncated = good.subarray(0, Math.floor(good.length / 2));
    const jpegMagic = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), good.subarray(4)]);
    const cases: Array<[string, () => Parameters<typeof uploadEvidence>[2], number, string]> = [
      ['huge dimensions (header bomb)', () => ({ file: hugeDimensionsPng() }), 400, 'EVIDENCE_DIMENSIONS_TOO_LARGE'],
      ['a side over 8192 px', () => ({ file: hugeDimensionsPng(8193, 10) }), 400, 'EVIDENCE_DIMENSIONS_TOO_LARGE'],
      [
        'over 16,777,216 px in all',
        () => ({ file: hugeDimensionsPng(8192, 2049) }),
        400,
        'EVIDENCE_DIMENSIONS_TOO_LARGE',
      ],
      ['decompression bomb', () => ({ file: decompressionBomb() }), 400, 'EVIDENCE_PNG_BOMB'],
      ['truncated PNG', () => ({ file: truncated }), 400, 'EVIDENCE_PNG_INVALID'],
      ['wrong magic', () => ({ file: jpegMagic }), 400, 'EVIDENCE_NOT_PNG'],
      ['empty file', () => ({ file: Buffer.alloc(0) }), 400, 'EVIDENCE_NOT_PNG'],
      [
        'wrong SHA-256',
        () => ({ file: good, sha256: sha256Hex(Buffer.from('something else')) }),
        400,
        'EVIDENCE_SHA256_MISMATCH',
      ],
      ['non-PNG MIME type', () => ({ file: good, mime: 'image/jpeg' }), 415, 'EVIDENCE_NOT_PNG'],
      [
        'corrupt image data',
        () => ({ file: craftedPng({ width: 4, height: 4, idat: Buffer.from('not zlib at all') }) }),
        400,
        'EVIDENCE_PNG_INVALID',
      ],
      [
        'interlaced',
        () => ({ file: craftedPng({ width: 4, height: 4, interlace: 1, idat: Buffer.alloc(8) }) }),
        400,
        'EVIDENCE_PNG_INVALID',
      ],
      [
        'oversize (10 MiB + 1 byte)',
        () => ({ file: Buffer.concat([good.subarray(0, 33), Buffer.alloc(10 * 1024 * 1024 + 1 - 33, 7)]) }),
        413,
        'EVIDENCE_TOO_LARGE',
      ],
      ['missing field', () => ({ file: good, omit: ['task_id'] }), 400, 'VALIDATION_FAILED'],
      ['unknown kind', () => ({ file: good, kind: 'ANYTHING' }), 400, 'VALIDATION_FAILED'],
      ['bad captured_at', () => ({ file: good, captured_at: '2025-01-02 03:04' }), 400, 'VALIDATION_FAILED'],
      ['no file', () => ({ file: good, omit: ['file'] }), 400, 'EVIDENCE_FILE_MISSING'],
    ];
    it.each(cases)('%s', async (_label, make, status, code) => {
      const res = await uploadEvidence(admin, device, make());
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ error: { code } });
    });

    it('a declared body over the limit is refused before any of it is read', async () => {
      const res = await headersOnly(`${admin.url}/api/device/evidence`, {
        authorization: device.authorization,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(11 * 1024 * 1024),
      });
      expect(res.status).toBe(413);
    });

    it('a JSON body is refused', async () => {
      const res = await getJson(`${admin.url}/api/device/evidence`, {
        method: 'POST',
        headers: { authorization: device.authorization, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(415);
    });
  });

  it('stores a good PNG under its content address and shows it to operators only, never cached', async () => {
    const png = realPng(120, 80, 7);
    const res = await uploadEvidence(admin, device, { file: png, upload_key: 'shot-ok' });
    expect(res.status).toBe(201);
    const asset = res.body as {
      evidence_id: string;
      sha256: string;
      width_px: number;
      height_px: number;
      byte_size: number;
    };
    expect(asset).toMatchObject({ sha256: sha256Hex(png), width_px: 120, height_px: 80, byte_size: png.length });
    expect(fs.readFileSync(path.join(evidenceDir, `${sha256Hex(png)}.png`)).equals(png)).toBe(true);

    const view = await fetch(`${admin.url}/api/evidence/${asset.evidence_id}`, {
      headers: { cookie: operator.sessionCookie ?? '' },
    });
    expect(view.status).toBe(200);
    expect(view.headers.get('cache-control')).toBe('no-store');
    expect(view.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await view.arrayBuffer()).equals(png)).toBe(true);

    expect((await getJson(`${admin.url}/api/evidence/${asset.evidence_id}`)).status).toBe(401);
    expect(
      (
        await getJson(`${admin.url}/api/evidence/${asset.evidence_id}`, {
          headers: { authorization: device.authorization },
        })
      ).status,
    ).toBe(401);
    // The evidence directory is not reachable as static files, under any name.
    for (const p of [
      `/evidence/${sha256Hex(png)}.png`,
      `/${sha256Hex(png)}.png`,
      `/data/evidence/${sha256Hex(png)}.png`,
      `/..%2Fevidence%2F${sha256Hex(png)}.png`,
    ]) {
      const r = await fetch(`${admin.url}${p}`);
      const body = Buffer.from(await r.arrayBuffer());
      expect({ p, leaked: body.equals(png) }).toEqual({ p, leaked: false });
    }
  });

  it('replays the same asset for the same (device, upload_key) and content, 409 for other content', async () => {
    const png = realPng(30, 30, 3);
    const first = await uploadEvidence(admin, device, { file: png, upload_key: 'replay-me' });
    const second = await uploadEvidence(admin, device, { file: png, upload_key: 'replay-me' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);

    const filesBefore = filesOnDisk();
    const other = realPng(30, 30, 4);
    const clash = await uploadEvidence(admin, device, { file: other, upload_key: 'replay-me' });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ error: { code: 'EVIDENCE_UPLOAD_KEY_CONFLICT' } });
    const otherField = await uploadEvidence(admin, device, {
      file: png,
      upload_key: 'replay-me',
      kind: 'ORDER_RESULT',
    });
    expect(otherField.status).toBe(409);
    expect(filesOnDisk()).toEqual(filesBefore);

    // Another device may use the same upload_key; the content file is shared, the rows are not.
    const phone2 = await issueTestDevice(admin, 'phone 2');
    const theirs = await uploadEvidence(admin, phone2, { file: png, upload_key: 'replay-me' });
    expect(theirs.status).toBe(201);
    expect(filesOnDisk()).toEqual(filesBefore);
  });

  it('turns 20 concurrent identical uploads into one file and one row', async () => {
    const png = realPng(200, 150, 11);
    await seedAttempt(admin.db, device.deviceId);
    const form = () => evidenceForm({ file: png, upload_key: 'concurrent-key', ...defaultAttempt(device.deviceId) });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        getJson(`${admin.url}/api/device/evidence`, {
          method: 'POST',
          headers: { authorization: device.authorization },
          body: form(),
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([...Array<number>(19).fill(200), 201]);
    const ids = new Set(results.map((r) => (r.body as { evidence_id: string }).evidence_id));
    expect(ids.size).toBe(1);
    const matching = (await rows()).filter((r) => r.upload_key === 'concurrent-key');
    expect(matching).toHaveLength(1);
    expect(filesOnDisk().filter((f) => f.startsWith(sha256Hex(png)))).toEqual([`${sha256Hex(png)}.png`]);
    expect(filesOnDisk().filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('evidence belongs to the uploading phone’s own attempt', () => {
  let admin: TestAdmin;
  beforeAll(async () => {
    admin = await startTestAdmin();
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('refuses an unknown attempt and another phone’s attempt with 409, writing nothing', async () => {
    const mine = await issueTestDevice(admin, 'phone A');
    const theirs = await issueTestDevice(admin, 'phone B');
    await seedAttempt(admin.db, theirs.deviceId);
    const png = realPng(64, 64, 3);
    const before = await admin.db.selectFrom('evidence_assets').select('id').execute();

    const unknown = await uploadEvidence({ url: admin.url }, mine, {
      file: png,
      task_id: 'task-x',
      attempt_id: 'attempt-x',
    });
    expect(unknown.status).toBe(409);
    expect(unknown.body).toMatchObject({ error: { code: 'EVIDENCE_ATTEMPT_UNKNOWN' } });
    const foreign = await uploadEvidence({ url: admin.url }, mine, { file: png, ...defaultAttempt(theirs.deviceId) });
    expect(foreign.status).toBe(409);

    expect(await admin.db.selectFrom('evidence_assets').select('id').execute()).toEqual(before);
    const own = await uploadEvidence(admin, theirs, { file: png });
    expect(own.status).toBe(201);
  });
});
