import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as chaos from '../../platform/chaos';
import { DEVICE_ACTS } from '../../device-worker/pdd/session/inputs';
import { PURCHASE_STEPS } from '../../domain/purchase/workflow-types';
import { ChaosController, type PointReport } from './controller';
import { judge, type PairFacts } from './invariants';
import { chaosMatrix, chaosProcesses, chaosSteps, parseOnly, samplePairs, type ChaosPair } from './matrix';

const BOUGHT: PairFacts = {
  maxTotalPriceCent: 4000,
  orders: [{ order_no: 'O1', total_cent: 3580 }],
  submitTaps: 1,
  paymentTaps: 0,
  task: { status: 'WAITING_PAYMENT', reason_code: null, pdd_order_no: 'O1' },
  settledInTime: true,
  fences: [{ status: 'SUBMITTED', abandoned: false }],
  phones: [{ device_id: 'd1', claiming: true, flagged: null }],
};

describe('the chaos matrix comes from the code', () => {
  it('has every workflow step and both sides of every phone act, crossed with every process', () => {
    const steps = chaosSteps();
    for (const s of PURCHASE_STEPS) expect(steps).toContain(s);
    for (const a of DEVICE_ACTS.filter((x) => x !== 'back'))
      expect(steps).toEqual(expect.arrayContaining([`${a}:before`, `${a}:after`]));
    // the collect's own back is no point of a purchase
    expect(steps).not.toContain('back:before');
    expect(chaosProcesses(false)).toEqual([
      'device-worker',
      'admin-worker',
      'admin-http',
      'phone-host',
      'temporal',
      'adb-link',
    ]);
    // on a cluster the server is its services and its database
    expect(chaosProcesses(true)).toEqual(
      expect.arrayContaining(['history', 'matching', 'frontend', 'postgres', 'device-worker', 'adb-link']),
    );
    expect(chaosProcesses(true)).not.toContain('temporal');
    expect(chaosMatrix(false)).toHaveLength(steps.length * 6);
  });

  it('samples by seed: the same seed the same pairs, another seed others, all of them over enough seeds', () => {
    const all = chaosMatrix(false);
    const a = samplePairs(all, 4, 'commit-a');
    expect(a).toHaveLength(4);
    expect(samplePairs(all, 4, 'commit-a')).toEqual(a);
    expect(samplePairs(all, 4, 'commit-b')).not.toEqual(a);
    const key = (p: ChaosPair) => `${p.step}|${p.process}`;
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) for (const p of samplePairs(all, 4, `c${i}`)) seen.add(key(p));
    expect(seen.size).toBeGreaterThan(all.length * 0.95);
  });

  it('--only takes a pair of the matrix, a side with its colon included, and names both lists otherwise', () => {
    const all = chaosMatrix(false);
    expect(parseOnly('submit_tap:before:phone-host', all)).toEqual({
      step: 'submit_tap:before',
      process: 'phone-host',
    });
    expect(parseOnly('fence:temporal', all)).toEqual({ step: 'fence', process: 'temporal' });
    expect(() => parseOnly('fence:nobody', all)).toThrow(/processes: device-worker/);
  });
});

describe('the invariants after a kill', () => {
  it('a purchase that bought once, under the cap, unpaid, with its number: ok', () => {
    expect(judge(BOUGHT)).toEqual({ outcome: 'WAITING_PAYMENT', overCap: 0, broken: [] });
  });

  it('a second order, a payment tap, an order over the cap: each broken', () => {
    const r = judge({
      ...BOUGHT,
      orders: [
        { order_no: 'O1', total_cent: 3580 },
        { order_no: 'O2', total_cent: 4100 },
      ],
      paymentTaps: 1,
      submitTaps: 2,
    });
    expect(r.overCap).toBe(1);
    expect(r.broken.join('\n')).toMatch(/2 orders/);
    expect(r.broken.join('\n')).toMatch(/payment taps/);
    expect(r.broken.join('\n')).toMatch(/over the cap/);
    expect(r.broken.join('\n')).toMatch(/2 taps on 提交订单/);
  });

  it('待付款 naming another order, a stop while the app holds an order, a stop without its reason: broken', () => {
    expect(judge({ ...BOUGHT, task: { ...BOUGHT.task, pdd_order_no: 'O9' } }).broken).toHaveLength(1);
    expect(
      judge({ ...BOUGHT, task: { status: 'NEEDS_MANUAL', reason_code: 'FENCE_UNAVAILABLE', pdd_order_no: null } })
        .broken,
    ).toEqual(['stopped (FENCE_UNAVAILABLE) while the app holds an order']);
    expect(
      judge({
        ...BOUGHT,
        orders: [],
        submitTaps: 0,
        fences: [],
        task: { status: 'NEEDS_MANUAL', reason_code: null, pdd_order_no: null },
      }).broken,
    ).toEqual(['NEEDS_MANUAL without a reason code']);
  });

  it('no defined state in time, a fence left open, a phone neither claiming nor flagged: broken', () => {
    expect(judge({ ...BOUGHT, settledInTime: false, task: { ...BOUGHT.task, status: 'ORDERING' } }).outcome).toBe(
      'NOT_SETTLED',
    );
    const open = judge({
      ...BOUGHT,
      orders: [],
      submitTaps: 0,
      fences: [{ status: 'FENCED', abandoned: false }],
      task: { status: 'NEEDS_MANUAL', reason_code: 'SUBMIT_NOT_STARTED', pdd_order_no: null },
    });
    expect(open.broken).toEqual(['a fence left open']);
    // given up untapped, or in 待核对 for a person: not open
    expect(
      judge({
        ...BOUGHT,
        orders: [],
        submitTaps: 0,
        fences: [{ status: 'FENCED', abandoned: true }],
        task: { status: 'NEEDS_MANUAL', reason_code: 'DEVICE_ERROR', pdd_order_no: null },
      }).broken,
    ).toEqual([]);
    expect(
      judge({
        ...BOUGHT,
        orders: [],
        fences: [{ status: 'RECONCILIATION_REQUIRED', abandoned: false }],
        task: { status: 'RECONCILIATION_REQUIRED', reason_code: 'SUBMIT_NOT_CONFIRMED', pdd_order_no: null },
      }).broken,
    ).toEqual([]);
    expect(judge({ ...BOUGHT, phones: [{ device_id: 'd1', claiming: false, flagged: null }] }).broken).toEqual([
      'phone d1 neither claiming nor flagged',
    ]);
    expect(judge({ ...BOUGHT, phones: [{ device_id: 'd1', claiming: false, flagged: 'CAPTCHA' }] }).broken).toEqual([]);
  });
});

describe('the chaos controller', () => {
  const post = async (url: string, report: PointReport) => {
    await fetch(`${url}/point`, { method: 'POST', body: JSON.stringify(report) });
  };
  const act = (a: string, phase: 'before' | 'after'): PointReport => ({
    process: 'device-worker',
    pid: 42,
    deviceId: 'd1',
    point: { kind: 'act', act: a, phase },
  });

  it('fires once, at the armed point, and answers only after the kill', async () => {
    const killed: string[] = [];
    let answeredBeforeKill = false;
    const controller = new ChaosController({
      stepOf: async () => null,
      kill: async (pair, report, deviceId) => {
        await new Promise((r) => setTimeout(r, 50));
        killed.push(`${pair.step}/${pair.process}/${report.pid}/${deviceId}`);
      },
    });
    const url = await controller.listen();
    try {
      await post(url, act('open_goods', 'before'));
      controller.arm({ step: 'submit_tap:before', process: 'device-worker' });
      await post(url, act('quantity_tap', 'after'));
      expect(controller.firedAt()).toBeNull();
      const answered = post(url, act('submit_tap', 'before')).then(() => {
        answeredBeforeKill = killed.length === 0;
      });
      await answered;
      expect(answeredBeforeKill).toBe(false);
      await post(url, act('submit_tap', 'before'));
      expect(killed).toEqual(['submit_tap:before/device-worker/42/d1']);
      expect(controller.seen).toEqual(['quantity_tap:after', 'submit_tap:before']);
    } finally {
      await controller.close();
    }
  });

  it('a workflow step fires at the first activity the workflow runs in it, with the phone its state names', async () => {
    const killed: string[] = [];
    const steps = ['preparing', 'fence', 'fence'];
    const asked: string[] = [];
    const controller = new ChaosController({
      stepOf: async (id) => {
        asked.push(id);
        return { step: steps.shift()!, deviceId: 'd2' };
      },
      kill: async (pair, _report, deviceId) => {
        killed.push(`${pair.step}/${deviceId}`);
      },
    });
    const url = await controller.listen();
    const activity = (name: string, workflowId = 'purchase/t1/a1'): PointReport => ({
      process: 'admin-worker',
      pid: 7,
      point: { kind: 'activity', activity: name, workflowId, local: name === 'beginOrdering' },
    });
    try {
      controller.disarm('t0');
      controller.arm({ step: 'fence', process: 'device-worker' });
      await post(url, activity('syncOrders', 'syb-sync/1'));
      // an earlier purchase's late activity (its phone's release) is no point of this one
      await post(url, activity('releaseDevice', 'purchase/t0/a0'));
      await post(url, activity('beginOrdering'));
      await post(url, activity('recordAttemptProgress'));
      await post(url, activity('createSubmissionFence'));
      await post(url, activity('recordPurchaseStatus'));
      expect(killed).toEqual(['fence/d2']);
      expect(asked).toEqual(['purchase/t1/a1', 'purchase/t1/a1']);
      // a local activity is not asked about (its workflow task could not answer)
      expect(controller.seen).toEqual([
        'local/beginOrdering',
        'preparing/recordAttemptProgress',
        'fence/createSubmissionFence',
      ]);
    } finally {
      await controller.close();
    }
  });
});

describe('the hook in every process (platform/chaos.ts)', () => {
  it('reports a point and waits for the answer; without CMAUTOBUY_CHAOS_URL it does nothing', async () => {
    const got: unknown[] = [];
    let release: () => void = () => undefined;
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push(JSON.parse(body));
        release = () => res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      delete process.env.CMAUTOBUY_CHAOS_URL;
      chaos.chaosRegister('device-worker', { deviceId: 'd1', serial: 's1' });
      await chaos.chaosPoint({ kind: 'act', act: 'submit_tap', phase: 'before' });
      expect(got).toHaveLength(0);

      process.env.CMAUTOBUY_CHAOS_URL = url;
      chaos.chaosRegister('device-worker', { deviceId: 'd1', serial: 's1' });
      let passed = false;
      const point = chaos.chaosPoint({ kind: 'act', act: 'submit_tap', phase: 'before' }).then(() => (passed = true));
      while (got.length === 0) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
      // the process stands at its point until the runner answers
      expect(passed).toBe(false);
      release();
      await point;
      expect(got).toEqual([
        {
          process: 'device-worker',
          deviceId: 'd1',
          serial: 's1',
          pid: process.pid,
          point: { kind: 'act', act: 'submit_tap', phase: 'before' },
        },
      ]);
    } finally {
      delete process.env.CMAUTOBUY_CHAOS_URL;
      server.close();
    }
  });
});
