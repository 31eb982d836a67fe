import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { ensureBinary, TEMPORAL_CLI } from '../../temporal/binaries';
import { decryptHistoryPayloads } from '../../temporal/codec/history';
import { sharedTemporal } from '../harness';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from '../purchase/setup';
import { fakePurchaseRig, stateOf, until } from '../workflows/fake-purchase';
import type { purchase } from '../../workflows/purchase';

/**
 * Every Temporal payload is encrypted (docs/security.md "Temporal payloads"): a real purchase's
 * history on the server holds no PDD order number or price in clear, and the admin's codec
 * endpoint gives them back to a logged-in operator only — the Web UI's and the CLI's way in.
 */

/** Every byte string of a history (payload data and metadata) and its failures' texts. */
function payloadBytes(node: unknown, out: Buffer[] = []): Buffer[] {
  if (node instanceof Uint8Array) out.push(Buffer.from(node));
  else if (Array.isArray(node)) for (const n of node) payloadBytes(n, out);
  else if (node !== null && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if ((k === 'message' || k === 'stackTrace') && typeof v === 'string') out.push(Buffer.from(v));
      else payloadBytes(v, out);
    }
  return out;
}

describe('Temporal payloads are encrypted; the codec endpoint decodes for operators only', () => {
  let rig: PurchaseRig;
  let workflowId: string;
  let orderNo: string;

  beforeAll(async () => {
    rig = await startPurchaseRig();
    const id = await rig.purchase({ ...BLACK_M, quantity: 2, maxTotalPriceCent: 4000 });
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED']);
    expect(t.status).toBe('WAITING_PAYMENT');
    orderNo = t.pdd_order_no as string;
    workflowId = t.workflow_id as string;
    expect(orderNo).toBeTruthy();
    expect(t.gates.gate2_panel_total_cent).toBe(3276);
  });
  afterAll(async () => {
    await rig?.close();
  });

  const history = async () => (await rig.admin.temporal.client()).workflow.getHandle(workflowId).fetchHistory();

  it('the server history holds neither the order number nor the price in clear; decrypted, it does', async () => {
    const raw = Buffer.concat(payloadBytes(await history()));
    expect(raw.includes(orderNo)).toBe(false);
    expect(raw.includes('3276')).toBe(false);
    expect(raw.includes('binary/encrypted')).toBe(true);
    // the same scan after decryption finds them: the scan would catch a payload in clear
    const plain = Buffer.concat(payloadBytes(await decryptHistoryPayloads(await history())));
    expect(plain.includes(orderNo)).toBe(true);
    expect(plain.includes('3276')).toBe(true);
  });

  it("the server's own database files never hold the order number", () => {
    const dir = process.env.CMAUTOBUY_TEST_TMP as string;
    const files = fs.readdirSync(dir).filter((f) => f.startsWith('temporal.db'));
    expect(files).toContain('temporal.db');
    for (const f of files) expect(bytesIfStill(path.join(dir, f)).includes(orderNo)).toBe(false);
  });

  /** A file's bytes; none when it went between the listing and the read (the server's journal comes and goes). */
  function bytesIfStill(file: string): Buffer {
    try {
      return fs.readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
      throw err;
    }
  }

  it('POST /api/codec/decode refuses a request without a session and decodes for an operator', async () => {
    const started = (await history()).events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
    const body = {
      payloads: started.map((p) => ({
        metadata: Object.fromEntries(
          Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
        ),
        data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
      })),
    };
    expect(body.payloads.length).toBeGreaterThan(0);
    const anonymous = await fetch(`${rig.admin.url}/api/codec/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-namespace': rig.admin.namespace },
      body: JSON.stringify(body),
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain('3276');

    // no CSRF token: the Web UI and the CLI speak the codec protocol, which has none
    const res = await rig.op.post('/api/codec/decode', body, {
      csrf: false,
      headers: { 'x-namespace': rig.admin.namespace },
    });
    expect(res.status).toBe(200);
    const decoded = (res.body as { payloads: Array<{ metadata: Record<string, string>; data: string }> }).payloads;
    expect(Buffer.from(decoded[0]!.metadata.encoding!, 'base64').toString()).toBe('json/plain');
    expect(Buffer.from(decoded[0]!.data, 'base64').toString()).toContain('"maxTotalPriceCent":4000');

    // encode → decode round trip through the endpoint
    const plain = {
      payloads: [
        {
          metadata: { encoding: Buffer.from('json/plain').toString('base64') },
          data: Buffer.from('"订单 42"').toString('base64'),
        },
      ],
    };
    const enc = await rig.op.post('/api/codec/encode', plain, { csrf: false });
    expect(Buffer.from((enc.body as typeof plain).payloads[0]!.metadata.encoding, 'base64').toString()).toBe(
      'binary/encrypted',
    );
    const back = await rig.op.post('/api/codec/decode', enc.body, { csrf: false });
    expect(back.body).toEqual(plain);

    const otherNs = await rig.op.post('/api/codec/decode', body, {
      csrf: false,
      headers: { 'x-namespace': 'someone-else' },
    });
    expect(otherNs.status).toBe(400);
    expect(otherNs.body).toMatchObject({ error: { code: 'CODEC_NAMESPACE_MISMATCH' } });
    const garbage = await rig.op.post(
      '/api/codec/decode',
      {
        payloads: [
          { metadata: body.payloads[0]!.metadata, data: Buffer.from('not a ciphertext at all').toString('base64') },
        ],
      },
      { csrf: false },
    );
    expect(garbage.status).toBe(400);
    expect(garbage.body).toMatchObject({ error: { code: 'CODEC_FAILED' } });
  });

  it("answers CORS for the Temporal Web UI's origin only", async () => {
    const uiOrigin = new URL(sharedTemporal().uiUrl as string).origin;
    const preflight = (origin: string) =>
      fetch(`${rig.admin.url}/api/codec/decode`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-namespace',
        },
      });
    const ok = await preflight(uiOrigin);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(uiOrigin);
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    const evil = await preflight('http://127.0.0.1:1');
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    // an answer to another origin carries no CORS header either, so its page cannot read it
    const cross = await rig.op.post(
      '/api/codec/encode',
      { payloads: [] },
      { csrf: false, headers: { origin: 'http://evil.example' } },
    );
    expect(cross.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('the Temporal CLI shows the history decoded through --codec-endpoint with an operator session', async () => {
    // async: the admin answering the CLI's codec calls runs in this very process
    const run = promisify(execFile);
    const cli = ensureBinary(TEMPORAL_CLI);
    const args = ['workflow', 'show', '--address', sharedTemporal().address, '--namespace', rig.admin.namespace];
    const show = [...args, '-w', workflowId, '--output', 'json'];
    // the JSON output keeps payload data in base64: read every data field
    const dataOf = (out: string) =>
      [...out.matchAll(/"data": "([A-Za-z0-9+/=]*)"/g)].map((m) => Buffer.from(m[1]!, 'base64').toString()).join('\n');
    const plain = await run(cli, show, { maxBuffer: 64 << 20 });
    expect(plain.stdout).toContain(Buffer.from('binary/encrypted').toString('base64'));
    expect(dataOf(plain.stdout)).not.toContain(orderNo);
    const cookie = rig.op.sessionCookie as string;
    const codec = ['--codec-endpoint', `${rig.admin.url}/api/codec`, '--codec-header', `Cookie=${cookie}`];
    const decoded = await run(cli, [...show, ...codec], { maxBuffer: 64 << 20 });
    expect(dataOf(decoded.stdout)).toContain(orderNo);
  });
});

describe("a failed activity's message and stack trace are encrypted too", () => {
  const { rig, setUp, tearDown } = fakePurchaseRig('failure-text');
  beforeAll(() => setUp());
  afterAll(tearDown);

  it('the history holds the failure as an encoded payload, and the workflow still reads its text', async () => {
    // an error text that names the order, as a phone's read-back can
    const orderNo = '260912345678901234';
    rig.script.observeFails = `order ${orderNo} not on the screen`;
    rig.script.pendingFails = `order ${orderNo} not in the list`;
    const handle = await rig.client.workflow.start<typeof purchase>('purchase', {
      workflowId: `purchase/failure-text-${process.pid}/auth`,
      taskQueue: rig.taskQueue,
      args: [
        {
          taskId: 't-failure-text',
          authorizationId: 'a-failure-text',
          goodsId: '937122477375',
          goodsUrl: 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375',
          options: { 颜色分类: '黑色', 尺码: 'M' },
          quantity: 1,
          maxTotalPriceCent: 2000,
          mode: 'live',
          expiresAt: new Date(Date.now() + 600_000).toISOString(),
        },
      ],
    });
    expect((await stateOf(handle, 'RECONCILIATION_REQUIRED')).reasonCode).toBe('SUBMIT_OUTCOME_UNKNOWN');
    await until(() => rig.calls.activities.includes('releaseDevice'));

    const history = await handle.fetchHistory();
    const failed = (history.events ?? []).filter((e) => e.activityTaskFailedEventAttributes);
    expect(failed.length).toBeGreaterThanOrEqual(2);
    for (const e of failed) {
      const failure = e.activityTaskFailedEventAttributes!.failure!;
      expect(failure.message).toBe('Encoded failure');
      expect(failure.stackTrace).toBe('');
      expect(failure.encodedAttributes?.metadata?.encoding).toBeDefined();
    }
    const raw = Buffer.concat(payloadBytes(history));
    expect(raw.includes(orderNo)).toBe(false);
    expect(raw.includes('not on the screen')).toBe(false);
    // decrypted, the same scan finds the text: the scan would catch it in clear
    const plain = Buffer.concat(payloadBytes(await decryptHistoryPayloads(await handle.fetchHistory())));
    expect(plain.includes(`order ${orderNo} not on the screen`)).toBe(true);
  });
});
