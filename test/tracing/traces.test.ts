import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { TRACE_PARENT_HEADER } from '../../domain/tracing';
import { flushTracing, installTracing } from '../../temporal/tracing';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from '../purchase/setup';

/**
 * CMAUTOBUY_OTEL_ENDPOINT (temporal/tracing.ts): a purchase is one trace — the operator's start,
 * the workflow, the admin's and the phone's activities down to the order the phone read — sent
 * over OTLP/HTTP to whatever listens. Here that is a tiny receiver collecting the POSTs.
 */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: { stringValue?: string } }>;
}

describe('traces: one purchase is one trace, exported over OTLP', () => {
  const bodies: Array<{ resourceSpans?: Array<{ resource?: unknown; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }> }> =
    [];
  let receiver: http.Server;
  let rig: PurchaseRig;

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/traces')
          bodies.push(JSON.parse(Buffer.concat(chunks).toString()));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    // before the rig: its clients and workers take their interceptors when they are made
    installTracing({
      endpoint: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
      serviceName: 'cmautobuy-test',
    });
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const spans = () =>
    bodies.flatMap((b) => (b.resourceSpans ?? []).flatMap((r) => (r.scopeSpans ?? []).flatMap((s) => s.spans ?? [])));

  it("the operator's start, the workflow, the admin's and the phone's activities share one trace id", async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL', 'RECONCILIATION_REQUIRED']);
    expect(t.status).toBe('WAITING_PAYMENT');
    await flushTracing();

    const start = spans().find((s) => s.name === 'StartWorkflow:purchase');
    expect(start).toBeDefined();
    const trace = spans()
      .filter((s) => s.traceId === start!.traceId)
      .map((s) => s.name);
    expect(trace).toEqual(
      expect.arrayContaining([
        'StartWorkflow:purchase',
        // the phone's part: the one tap that made the order
        'RunActivity:submitOnce',
      ]),
    );
    // the trace is the workflow's: every activity span of it names the purchase's workflow
    const attrs = (s: OtlpSpan) => Object.fromEntries((s.attributes ?? []).map((a) => [a.key, a.value.stringValue]));
    const inTrace = spans().filter((s) => s.traceId === start!.traceId);
    expect(new Set(inTrace.map((s) => attrs(s)['temporal.workflow_id']))).toEqual(new Set([t.workflow_id]));
    // the phone's activities ran on its own queues, the admin's on `admin`: all in the one trace
    expect([...new Set(inTrace.map((s) => attrs(s)['temporal.task_queue']).filter(Boolean))]).toEqual(
      expect.arrayContaining(['admin', 'devices', `device/${rig.device.deviceId}`]),
    );
    // admin activities of the same purchase are in it too
    expect(trace.filter((n) => n.startsWith('RunActivity:')).length).toBeGreaterThan(3);
    // and no other purchase's start shares it
    expect(spans().filter((s) => s.name === 'StartWorkflow:purchase' && s.traceId === start!.traceId)).toHaveLength(1);

    // the chain: the operator's start → the workflow (workflows/tracing.ts) → every activity of it
    const runs = inTrace.filter((s) => s.name === 'RunWorkflow:purchase');
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    expect(run.parentSpanId).toBe(start!.spanId);
    const handle = (await rig.admin.temporal.client()).workflow.getHandle(t.workflow_id!);
    expect(attrs(run)['temporal.run_id']).toBe((await handle.describe()).runId);
    const activities = inTrace.filter((s) => s.name.startsWith('RunActivity:'));
    expect(activities.filter((s) => s.parentSpanId !== run.spanId).map((s) => s.name)).toEqual([]);

    // the start's span reached the workflow in its start header, which the recorded histories lack
    const history = await handle.fetchHistory();
    const header = history.events?.[0]?.workflowExecutionStartedEventAttributes?.header?.fields ?? {};
    expect(Object.keys(header)).toContain(TRACE_PARENT_HEADER);
  });
});
