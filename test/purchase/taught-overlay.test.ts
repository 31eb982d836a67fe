import { BLACK_M, putSimOverlays, startPurchaseRig, type PurchaseRig } from './setup';

const DONE = ['NEEDS_MANUAL', 'WAITING_PAYMENT', 'RECONCILIATION_REQUIRED', 'DRY_RUN_PASSED'];

/** A popup the profile does not know, with its own close control: what a person would teach. */
const AUTUMN_PROMO = {
  id: 'autumn-promo',
  when: 'open',
  bounds: [90, 700, 990, 1700],
  nodes: [
    { text: '秋季大促 全场满减', class: 'android.widget.TextView', clickable: false, bounds: [140, 760, 940, 860] },
    {
      text: '立即领取',
      class: 'android.widget.TextView',
      clickable: true,
      bounds: [140, 1400, 940, 1500],
      action: 'navigate:home',
    },
    {
      text: '暂不需要',
      class: 'android.widget.TextView',
      clickable: true,
      bounds: [140, 1560, 940, 1660],
      action: 'dismiss',
    },
  ],
};

/**
 * A popup taught from the admin (docs/api.md §12.3): an unknown overlay stops the purchase; a
 * person teaches its texts and the control that closes it; once reviewed, the phone closes it by
 * itself on the next task, with a close tap only. A close control that accepts or navigates is
 * refused, and an entry waiting for review reaches no phone.
 */
describe('a taught popup', () => {
  let rig: PurchaseRig;
  beforeAll(async () => {
    rig = await startPurchaseRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  const setOverlays = (overlays: object[]) => putSimOverlays(rig, overlays);
  const dryRun = async () => {
    const id = await rig.purchase({ ...BLACK_M, quantity: 1, maxTotalPriceCent: 2000, mode: 'dry_run' });
    return rig.waitFor(id, DONE);
  };

  it('stops on the unknown popup, refuses an accepting close control, and closes the reviewed one by itself', async () => {
    await rig.resetPhone();
    await setOverlays([AUTUMN_PROMO]);
    const first = await dryRun();
    expect({ status: first.status, reason: first.reason_code }).toEqual({
      status: 'NEEDS_MANUAL',
      reason: 'UNKNOWN_OVERLAY',
    });
    expect(rig.taps().filter((t) => t.overlay !== null)).toEqual([]);

    const url = '/api/app-versions/8.17.0/overlays';
    const accepting = await rig.op.post(url, {
      name: 'autumn_promo',
      signature: [{ text: '秋季大促 全场满减' }],
      close: { text: '立即领取' },
    });
    expect(accepting).toMatchObject({ status: 400, body: { error: { code: 'OVERLAY_INVALID' } } });
    const taught = await rig.op.post(url, {
      name: 'autumn_promo',
      signature: [{ text: '秋季大促 全场满减' }],
      close: { text: '暂不需要', class: 'android.widget.TextView' },
    });
    expect(taught.status).toBe(201);
    const overlayId = (taught.body as { id: number }).id;

    // waiting for review: no phone closes it yet
    await rig.resetPhone();
    await setOverlays([AUTUMN_PROMO]);
    expect((await dryRun()).reason_code).toBe('UNKNOWN_OVERLAY');

    expect((await rig.op.post(`${url}/${overlayId}/review`)).status).toBe(200);
    await rig.resetPhone();
    await setOverlays([AUTUMN_PROMO]);
    const before = rig.taps().length;
    const passed = await dryRun();
    expect({ status: passed.status, reason: passed.reason_code }).toEqual({ status: 'DRY_RUN_PASSED', reason: null });
    const onPopup = rig
      .taps()
      .slice(before)
      .filter((t) => t.overlay !== null);
    expect(onPopup.map((t) => [t.overlay, t.overlay_action])).toEqual([['autumn-promo', 'dismiss']]);
    expect(passed.timeline.filter((e) => e.status === 'INTERSTITIAL_CLOSED').map((e) => e.detail)).toEqual([
      'interstitial taught_autumn_promo',
    ]);

    const audit = await rig.admin.db
      .selectFrom('audit_log')
      .select(['action', 'actor'])
      .where('action', 'like', 'overlay.%')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'overlay.teach', actor: 'admin' },
      { action: 'overlay.review', actor: 'admin' },
    ]);
  });
});
