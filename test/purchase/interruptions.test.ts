import type { DeviceView } from '../../domain/devices';
import { BLACK_M, putSimOverlays, startPurchaseRig, type PurchaseRig } from './setup';

/**
 * The real app's interruptions through the operator API, the real workflow and device worker,
 * on a phone that names its nodes as the real app does (`…:id/pdd` or none): a profiled
 * interstitial is closed and the purchase goes on (dry run and live); each challenge page is its
 * own NEEDS_MANUAL reason with a SAFETY_STOP screenshot; an unprofiled overlay stops with no tap
 * inside it; after the submit tap nothing is tapped, overlay or not.
 */
describe('purchase on a hostile app (generic ids)', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
  });
  beforeEach(async () => {
    await rig.resetPhone();
    rig.sim.phone(rig.serial).setFaults({ id_style: 'generic' });
    // a login or risk page put the phone on 需处理 (docs/api.md §12.1): the next case needs it claiming
    await rig.resumePhone();
  });

  const setOverlays = (overlays: object[]) => putSimOverlays(rig, overlays);
  const overlayTaps = () => rig.taps().filter((t) => t.overlay !== null);
  const DONE = ['NEEDS_MANUAL', 'WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'DRY_RUN_PASSED'];

  it('dry run with an interstitial at every step before the fence: DRY_RUN_PASSED, only close taps on them', async () => {
    await setOverlays([
      { template: 'limited_deal_mask', when: 'open' },
      { template: 'update_prompt', when: 'panel' },
      { template: 'notification_prompt', when: 'final_panel' },
    ]);
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
    const t = await rig.waitFor(id, DONE);
    expect(t.status).toBe('DRY_RUN_PASSED');
    expect(overlayTaps().map((x) => x.overlay_action)).toEqual(['dismiss', 'dismiss', 'dismiss']);
    // each close is on the operator's timeline, in the order the phone closed them
    const closed = t.timeline.filter((e) => e.status === 'INTERSTITIAL_CLOSED');
    expect(closed.map((e) => e.detail)).toEqual([
      'interstitial limited_deal_mask',
      'interstitial update_prompt',
      'interstitial notification_prompt',
    ]);
    // and as data, for the operator's words (弹窗 names)
    expect(closed.map((e) => e.facts)).toEqual(
      ['limited_deal_mask', 'update_prompt', 'notification_prompt'].map((i) => ({
        kind: 'interstitial_closed',
        interstitial: i,
      })),
    );
    expect(rig.submitTaps()).toHaveLength(0);
    expect(rig.orders()).toHaveLength(0);
  });

  it('live with an interstitial before the fence and one right after the submit: one order, one submit tap, nothing tapped after it', async () => {
    await setOverlays([
      { template: 'red_packet', when: 'open' },
      { template: 'order_success', when: 'after_submit' },
    ]);
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const t = await rig.waitFor(id, ['WAITING_PAYMENT', 'NEEDS_MANUAL']);
    expect(t.status).toBe('WAITING_PAYMENT');
    expect(rig.orders()).toHaveLength(1);
    expect(t.pdd_order_no).toBe(rig.orders()[0]?.order_no);
    expect(rig.submitTaps()).toHaveLength(1);
    const submitAt = rig.taps().indexOf(rig.submitTaps()[0]!);
    expect(rig.taps().slice(submitAt + 1)).toEqual([]);
    expect(overlayTaps().map((x) => x.overlay)).toEqual(['red_packet']);
    expect(rig.paymentTaps()).toHaveLength(0);
  });

  it.each([
    ['login', 'open', 'LOGIN_REQUIRED'],
    ['risk_sms', 'panel', 'RISK_SMS'],
    ['sold_out', 'open', 'SOLD_OUT'],
    ['address_missing', 'final_panel', 'ADDRESS_MISSING'],
  ])('%s at %s → NEEDS_MANUAL %s with a SAFETY_STOP screenshot, no order', async (page, when, reason) => {
    rig.sim.phone(rig.serial).setFaults({ id_style: 'generic', page_on: { [when]: page } });
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const t = await rig.waitFor(id, DONE);
    expect({ status: t.status, reason: t.reason_code }).toEqual({ status: 'NEEDS_MANUAL', reason });
    expect(t.next_step_zh).toBeTruthy();
    expect(t.evidence.map((e) => e.kind)).toContain('SAFETY_STOP');
    expect(rig.orders()).toHaveLength(0);
    expect(rig.submitTaps()).toHaveLength(0);
    // only a page a person must clear on the phone stops the phone taking the next task
    const device = ((await rig.op.get('/api/devices')).body as DeviceView[]).find(
      (d) => d.device_id === rig.device.deviceId,
    );
    expect(device?.attention?.reason_code ?? null).toBe(
      ['LOGIN_REQUIRED', 'RISK_SMS'].includes(reason) ? reason : null,
    );
  });

  it('an unprofiled dialog over the bottom bar, the goods page still in the dump beneath: UNKNOWN_OVERLAY, 0 taps', async () => {
    await setOverlays([
      {
        id: 'promo-bar',
        when: 'open',
        bounds: [0, 2000, 1080, 2376],
        nodes: [
          {
            text: '立即领取 ¥0.01 抢购',
            resource_id: '',
            class: 'android.widget.TextView',
            content_desc: '',
            clickable: true,
            bounds: [36, 2196, 1044, 2356],
            action: 'navigate:home',
          },
        ],
      },
    ]);
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000 });
    const t = await rig.waitFor(id, DONE);
    expect({ status: t.status, reason: t.reason_code }).toEqual({ status: 'NEEDS_MANUAL', reason: 'UNKNOWN_OVERLAY' });
    expect(t.evidence.map((e) => e.kind)).toContain('SAFETY_STOP');
    expect(rig.taps()).toHaveLength(0);
    expect(rig.orders()).toHaveLength(0);
  });
});
