import { getJson, TEST_ADMIN_PASSWORD } from '../harness';
import { BLACK_M, startPurchaseRig, type PurchaseRig } from '../purchase/setup';
import { parsePrometheusText, valueOf, type Scrape } from './prom-text';

/**
 * The admin's `GET /metrics` (docs/operations.md "Metrics"): valid Prometheus text, reachable
 * without a session, and counting purchases that really ran through the whole stack (operator
 * API → Temporal → device worker → simulated phone).
 */
describe('admin /metrics', () => {
  let rig: PurchaseRig;
  const scrape = async (): Promise<{ text: string; parsed: Scrape }> => {
    const res = await fetch(`${rig.admin.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    return { text, parsed: parsePrometheusText(text) };
  };

  beforeAll(async () => {
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
  });
  beforeEach(() => rig.resetPhone());

  it('answers without a session or CSRF token, and refuses to be written to', async () => {
    // the phone registers in the background: the gauge must agree with the device list once it has
    for (
      let i = 0;
      i < 100 && !((await rig.op.get('/api/devices')).body as Array<{ online: boolean }>).some((d) => d.online);
      i++
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const { parsed } = await scrape();
    expect(parsed.types.get('cmautobuy_purchases_started_total')).toBe('counter');
    expect(parsed.types.get('cmautobuy_http_request_duration_seconds')).toBe('histogram');
    expect({
      online: valueOf(parsed, 'cmautobuy_phones', { state: 'online' }),
      offline: valueOf(parsed, 'cmautobuy_phones', { state: 'offline' }),
    }).toEqual({ online: 1, offline: 0 });
    expect(valueOf(parsed, 'cmautobuy_admin_db_up')).toBe(1);
    const post = await getJson(`${rig.admin.url}/metrics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(401);
  });

  it('counts a dry run end to end: started, ended as DRY_RUN_PASSED, claim wait observed, HTTP latency by route pattern', async () => {
    const before = (await scrape()).parsed;
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
    const task = await rig.waitFor(id, ['DRY_RUN_PASSED', 'NEEDS_MANUAL']);
    expect(task.status).toBe('DRY_RUN_PASSED');
    const { text, parsed: after } = await scrape();

    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('cmautobuy_purchases_started_total')).toBe(1);
    expect(delta('cmautobuy_purchases_ended_total', { status: 'DRY_RUN_PASSED', reason: 'NONE' })).toBe(1);
    expect(delta('cmautobuy_purchase_claim_wait_seconds_count')).toBe(1);
    expect(delta('cmautobuy_purchase_start_to_waiting_payment_seconds_count')).toBe(0);
    expect(delta('cmautobuy_purchase_gate_stops_total', { gate: '1' })).toBe(0);

    // routes by their pattern, never by the raw path with the task id in it
    expect(
      valueOf(after, 'cmautobuy_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/tasks/:taskId',
        status_class: '2xx',
      }),
    ).toBeGreaterThan(0);
    expect(
      valueOf(after, 'cmautobuy_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/tasks/start',
        status_class: '2xx',
      }),
    ).toBe(1);
    const routes = new Set(
      after.samples
        .filter((s) => s.name === 'cmautobuy_http_request_duration_seconds_count')
        .map((s) => s.labels.route),
    );
    for (const route of routes) expect(route).toMatch(/^(\/[a-z-]*|\/api(\/(:?[A-Za-z-]+))*|\(unrouted\)|\(ui\))$/);

    // nothing that identifies a task, a phone's token, an operator or the goods
    expect(task.title).toBeTruthy();
    for (const secretOrPersonal of [
      id,
      task.title!,
      rig.device.token,
      TEST_ADMIN_PASSWORD,
      rig.op.csrfToken!,
      rig.op.sessionCookie!.split('=')[1]!,
      rig.device.deviceId,
    ]) {
      expect(text).not.toContain(secretOrPersonal);
    }
  });

  it('counts a stop at gate 1 by its gate and its reason code', async () => {
    const before = (await scrape()).parsed;
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 1, mode: 'dry_run' });
    const task = await rig.waitFor(id, ['DRY_RUN_PASSED', 'NEEDS_MANUAL']);
    expect({ status: task.status, reason: task.reason_code }).toEqual({
      status: 'NEEDS_MANUAL',
      reason: 'GATE1_OVER_CAP',
    });
    const after = (await scrape()).parsed;
    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('cmautobuy_purchase_gate_stops_total', { gate: '1' })).toBe(1);
    expect(delta('cmautobuy_purchases_ended_total', { status: 'NEEDS_MANUAL', reason: 'GATE1_OVER_CAP' })).toBe(1);
    expect(delta('cmautobuy_purchases_ended_total', { status: 'DRY_RUN_PASSED', reason: 'NONE' })).toBe(0);
  });
});
