import { lineMoney } from '../../domain/margin';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { seedDraft, seedLine, seedPurchase, setStatus } from './seed';

/**
 * What each order line earns, through the API: the formulas on the rounding edges (the SQL of the
 * list and the overview's trigger against domain/margin.ts), the rate frozen at 待付款, no figure
 * without a rate, and refused ranges.
 */
interface Line {
  syb_id: string;
  sale_twd_cent: number | null;
  quantity: number;
  rate_ppm: number | null;
  sale_cny_cent: number | null;
  fees_cny_cent: number | null;
  cost_cny_cent: number | null;
  cost_source: string | null;
  margin_cny_cent: number | null;
  margin_bp: number | null;
  task_id: string | null;
  task_status: string | null;
}

/** an error answer, a settings answer, an overview: what the assertions read of a body */
interface Answer {
  error: { code: string; details: { issues: Array<{ path: string }> } };
  days: Array<Record<string, unknown>>;
  phones: Array<Record<string, unknown>>;
}
const answer = (res: { body: unknown }) => res.body as Answer;

const DAY = '2026-11-20';
/** 10:00 Taipei on DAY */
const AT = '2026-11-20T02:00:00Z';

describe('money per order line', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  const lines = async (query = `from=${DAY}&to=${DAY}`) => {
    const res = await op.get(`/api/money/lines?${query}&limit=500`);
    expect(res.status).toBe(200);
    return res.body as { items: Line[]; next_cursor: string | null; rate_set: boolean };
  };
  const line = async (id: string) => (await lines()).items.find((l) => l.syb_id === id)!;
  const settings = async (body: Record<string, number | null>) =>
    expect((await op.request('PUT', '/api/settings', body)).status).toBe(200);

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
  });
  afterAll(async () => admin?.close());

  it('has no money figure while no rate is set', async () => {
    await seedLine(admin.db, { sybId: 'N1', createdAt: AT, saleTwdCent: 10_000, quantity: 1 });
    const page = await lines();
    expect(page.rate_set).toBe(false);
    expect(page.items[0]).toMatchObject({
      sale_twd_cent: 10_000,
      rate_ppm: null,
      sale_cny_cent: null,
      margin_cny_cent: null,
    });
  });

  // sale × rate landing on .5 exactly, just under, and a fee that rounds on .5; costs that make a loss
  const EDGES: Array<[string, number, number, number]> = [
    ['E1', 1, 1, 2], // 1 TWD-cent × 0.5 → 0.5 → 1
    ['E2', 3, 1, 1], // 1.5 → 2
    ['E3', 2_223, 3, 1_000],
    ['E4', 99_999, 2, 99_999], // a loss
    ['E5', 12_345, 1, 2_777], // margin_bp of a negative margin on .5
    ['E6', 0, 1, 1], // nothing sold: no share of it
  ];

  it('prices every line by the one formula, to the cent, on the rounding edges', async () => {
    await settings({
      'money.twd_to_cny_rate_ppm': 500_000,
      'money.platform_fee_bp': 250,
      'money.line_fee_cny_cent': 7,
    });
    for (const [id, sale, quantity, cap] of EDGES) {
      await seedLine(admin.db, { sybId: id, createdAt: AT, saleTwdCent: sale, quantity });
      await seedDraft(admin.db, { taskId: `task-${id}`, sybId: id, capCent: cap, at: AT });
    }
    for (const [id, sale, quantity, cap] of EDGES) {
      const got = await line(id);
      const want = lineMoney(
        { saleTwdCent: sale, quantity },
        { ratePpm: 500_000, feeBp: 250, lineFeeCnyCent: 7 },
        cap,
      )!;
      expect({ id, ...got }).toMatchObject({
        id,
        rate_ppm: 500_000,
        sale_cny_cent: want.saleCnyCent,
        fees_cny_cent: want.feesCnyCent,
        cost_cny_cent: cap,
        cost_source: 'estimate',
        margin_cny_cent: want.marginCnyCent,
        margin_bp: want.marginBp,
      });
    }
    expect(await line('E1')).toMatchObject({ sale_cny_cent: 1 });
    expect(await line('E2')).toMatchObject({ sale_cny_cent: 2 });
    // 12345 × 0.5 = 6172.5 → 6173; fee 154.325 → 154 + 7 = 161; 6173 − 161 − 2777 = 3235
    expect(await line('E5')).toMatchObject({
      sale_cny_cent: 6173,
      fees_cny_cent: 161,
      margin_cny_cent: 3235,
      margin_bp: 5241,
    });
    expect(await line('E6')).toMatchObject({ sale_cny_cent: 0, margin_bp: null });
    const losses = (await lines(`from=${DAY}&to=${DAY}&loss=1`)).items.map((l) => l.syb_id);
    const rates = { ratePpm: 500_000, feeBp: 250, lineFeeCnyCent: 7 };
    const lossy = EDGES.filter(
      ([, sale, q, cap]) => lineMoney({ saleTwdCent: sale, quantity: q }, rates, cap)!.marginCnyCent! < 0,
    );
    expect(losses.sort()).toEqual(lossy.map(([id]) => id).sort());
    expect(losses).toContain('E4');
    const byMargin = (await lines(`from=${DAY}&to=${DAY}&sort=margin`)).items.map((l) => l.margin_cny_cent);
    const known = byMargin.filter((m): m is number => m !== null);
    expect(known).toEqual([...known].sort((a, b) => a - b));
  });

  it('keeps the rate, fee and cost a purchase had when it reached 待付款; a later rate leaves it alone', async () => {
    await seedLine(admin.db, { sybId: 'P1', createdAt: AT, saleTwdCent: 20_000, quantity: 2 });
    await seedPurchase(admin.db, {
      taskId: 'task-P1',
      sybId: 'P1',
      capCent: 9_000,
      amountCent: 8_150,
      deviceId: 'phone-a',
      at: AT,
      waitingAt: '2026-11-20T03:00:00Z',
    });
    const before = await line('P1');
    const want = lineMoney(
      { saleTwdCent: 20_000, quantity: 2 },
      { ratePpm: 500_000, feeBp: 250, lineFeeCnyCent: 7 },
      8_150,
    )!;
    expect(before).toMatchObject({
      cost_cny_cent: 8_150,
      cost_source: 'purchase',
      margin_cny_cent: want.marginCnyCent,
    });
    await settings({ 'money.twd_to_cny_rate_ppm': 230_000, 'money.platform_fee_bp': 900 });
    expect(await line('P1')).toEqual(before);
    // a draft not yet at 待付款 follows today's rate
    expect(await line('E3')).toMatchObject({ rate_ppm: 230_000 });
    // and so does the day's margin in the overview
    const overview = answer(await op.get(`/api/money/overview?from=${DAY}&to=${DAY}`));
    expect(overview.days).toEqual([
      expect.objectContaining({
        date: DAY,
        waiting_payment_count: 1,
        waiting_payment_cny_cent: 8_150,
        margin_cny_cent: want.marginCnyCent,
      }),
    ]);
  });

  it('shows the task page the same money as its line: frozen after 待付款, an estimate before', async () => {
    const paid = (await op.get('/api/tasks/task-P1')).body as { money: Record<string, unknown> };
    const row = await line('P1');
    expect(paid.money).toMatchObject({
      rates_frozen: true,
      rate_ppm: 500_000,
      sale_cny_cent: row.sale_cny_cent,
      fees_cny_cent: row.fees_cny_cent,
      cost_cny_cent: 8_150,
      cost_source: 'purchase',
      margin_cny_cent: row.margin_cny_cent,
      margin_bp: row.margin_bp,
    });
    expect((await op.get('/api/tasks/task-P1')).body).toMatchObject({ order_line_spec: '黑色,M' });
    const draft = (await op.get('/api/tasks/task-E3')).body as { money: Record<string, unknown> };
    expect(draft.money).toMatchObject({
      rates_frozen: false,
      rate_ppm: 230_000,
      cost_source: 'estimate',
      cost_cny_cent: 1_000,
    });
    expect(draft.money.margin_cny_cent).toBe((await line('E3')).margin_cny_cent);
  });

  it('refuses a range that is not one, naming the field', async () => {
    const bad = async (query: string, field: string) => {
      const res = await op.get(`/api/money/lines?${query}`);
      expect(res.status).toBe(400);
      expect(answer(res).error.code).toBe('VALIDATION_FAILED');
      expect(answer(res).error.details.issues.map((i) => i.path)).toContain(field);
    };
    await bad('from=2026-02-30&to=2026-03-01', 'from');
    await bad('from=yesterday&to=2026-03-01', 'from');
    await bad('from=2026-03-02&to=2026-03-01', 'to');
    await bad('from=2025-01-01&to=2026-03-01', 'to');
    await bad('to=2026-03-01', 'from');
    const rate = await op.request('PUT', '/api/settings', { 'money.twd_to_cny_rate_ppm': 10_000_001 });
    expect(rate.status).toBe(400);
    expect(JSON.stringify(answer(rate).error)).toContain('money.twd_to_cny_rate_ppm');
    const negative = await op.request('PUT', '/api/settings', { 'money.twd_to_cny_rate_ppm': -1 });
    expect(negative.status).toBe(400);
  });

  it('counts the day: lines in, purchases, 待付款, paid, stops and dry runs, each on the day it happened', async () => {
    const day2 = '2026-11-21';
    await seedLine(admin.db, { sybId: 'D1', createdAt: '2026-11-20T17:00:00Z', saleTwdCent: 10_000, quantity: 1 });
    await seedPurchase(admin.db, {
      taskId: 'task-D1',
      sybId: 'D1',
      capCent: 3_000,
      amountCent: 2_000,
      deviceId: 'phone-b',
      at: '2026-11-20T17:00:00Z',
      waitingAt: '2026-11-20T17:05:00Z',
      paidAt: '2026-11-21T09:00:00Z',
    });
    await seedDraft(admin.db, {
      taskId: 'task-dry',
      sybId: null,
      capCent: 100,
      mode: 'dry_run',
      at: '2026-11-20T18:00:00Z',
    });
    await setStatus(admin.db, 'task-dry', 'PENDING', '2026-11-20T18:00:00Z');
    await setStatus(admin.db, 'task-dry', 'NEEDS_MANUAL', '2026-11-20T18:01:00Z', {
      reason_code: 'GATE1_PRICE_ABOVE_CAP',
    });
    const res = await op.get(`/api/money/overview?from=${day2}&to=2026-11-22`);
    expect(res.status).toBe(200);
    const [d2, d3] = answer(res).days;
    // 17:00Z is 01:00 the next day in Taipei
    expect(d2).toMatchObject({
      date: day2,
      lines_in: 1,
      live_purchases: 1,
      waiting_payment_count: 1,
      waiting_payment_cny_cent: 2_000,
      paid_count: 1,
      paid_cny_cent: 2_000,
      dry_runs: 1,
      stops: { GATE1_PRICE_ABOVE_CAP: 1 },
    });
    expect(d3).toMatchObject({ date: '2026-11-22', lines_in: 0, live_purchases: 0, stops: {}, margin_cny_cent: null });
    // 用时 is the machine's: to 待付款 (5 min), the 15 h 55 min a person took to pay kept apart
    expect((await op.get('/api/tasks/task-D1')).body).toMatchObject({
      duration_seconds: 300,
      payment_wait_seconds: 57_300,
    });
    const listed = (await op.get('/api/tasks?status=SUCCEEDED')).body as {
      items: Array<{ task_id: string; duration_seconds: number }>;
    };
    expect(listed.items.find((t) => t.task_id === 'task-D1')?.duration_seconds).toBe(300);
    expect(answer(res).phones).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ device_id: 'phone-b', purchases: 1, waiting_payment_count: 0 }),
        expect.objectContaining({ device_id: 'phone-a', waiting_payment_count: 1, waiting_payment_cny_cent: 8_150 }),
      ]),
    );
  });
});
