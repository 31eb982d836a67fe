import { DeviceError } from '../../errors';
import { structure } from '../match';
import { dimensionNamesFromSummary, readPanelState } from '../panel-state';
import type { GoodsView } from '../screens';
import { activityCheckpoint } from './checkpoint';
import type { OpenPanel } from './panel';
import type { SessionParts } from './parts';
import { sleep } from './timing';
import { WAIT } from './waits';

/**
 * Opens the goods by intent (`am start`, never a tap) and proves the goods page. A network error
 * page gets ONE re-open of the goods link per session (../interruptions.ts).
 */
export async function openGoods(s: SessionParts, goodsId: string): Promise<GoodsView> {
  if (!/^\d+$/.test(goodsId))
    throw new DeviceError('INVALID_INPUT', `goods id ${JSON.stringify(goodsId)} is not digits`);
  const url = s.profile.goodsUrl(goodsId);
  s.steps.add('open_goods', { goods_id: goodsId, url });
  await openByIntent(s, 'open_goods', url);
  try {
    return await waitForGoods(s, goodsId);
  } catch (err) {
    if (!s.interruptions.mayReopen(err)) throw err;
    s.steps.add('reopen_goods', { goods_id: goodsId, url, after: 'NETWORK_ERROR' });
    await openByIntent(s, 'reopen_goods', url);
    return waitForGoods(s, goodsId);
  }
}

/**
 * The goods link's safe point comes before the witness's look (./inputs.ts `send` has
 * them the other way round): a cancelled activity neither looks nor opens anything.
 */
async function openByIntent(s: SessionParts, what: 'open_goods' | 'reopen_goods', url: string): Promise<void> {
  activityCheckpoint(what);
  await s.inputs.beforeInput();
  s.dumps.inputSent();
  await s.inputs.act(what, () => s.adb.startView(url));
}

function waitForGoods(s: SessionParts, goodsId: string): Promise<GoodsView> {
  return s.waits.waitFor('the goods page', true, (screen) => {
    if (screen.kind === 'goods_detail') return screen.goods;
    if (screen.kind === 'goods_delisted')
      throw new DeviceError('GOODS_DELISTED', `goods ${goodsId} is delisted (${s.profile.text.offline})`, {
        goods_id: goodsId,
        title: screen.title,
      });
    return WAIT;
  });
}

/** Taps the profiled entry once; the new panel must show nothing selected. */
export async function openSpecPanel(s: SessionParts, goods: GoodsView): Promise<OpenPanel> {
  s.steps.add('open_spec_panel', { tap: { x: goods.entry.x, y: goods.entry.y } });
  await s.inputs.tapAt('entry_tap', goods.entry, goods.entry.label);
  await sleep(s.timing.navigationSettleMs);
  const view = await s.waits.waitFor('the spec panel', true, (screen) =>
    screen.kind === 'sku_panel' ? screen.panel : screen.kind === 'goods_detail' ? WAIT : undefined,
  );
  const names = dimensionNamesFromSummary(view.summary, s.profile);
  const state = readPanelState(view, names, s.profile);
  if (state.selection.some((v) => v !== null)) throw structure('spec panel: a fresh panel already has a selection');
  s.panels.opened += 1;
  return { serial: s.panels.opened, names, state };
}

/**
 * One back, sealed before it is sent and never repeated. With `expectGoods` the goods page
 * must come back (proven by a dump); otherwise nothing is read afterwards.
 */
export async function back(s: SessionParts, expectGoods: boolean): Promise<GoodsView | null> {
  s.steps.add('back', { expect: expectGoods ? 'goods page' : 'nothing' });
  await s.inputs.send('back', () => s.adb.keyevent(s.profile.keyBack));
  s.clock.counters.keyevents += 1;
  if (!expectGoods) return null;
  await sleep(s.timing.navigationSettleMs);
  return s.waits.waitFor('the goods page after back', true, (screen) =>
    screen.kind === 'goods_detail' ? screen.goods : screen.kind === 'sku_panel' ? WAIT : undefined,
  );
}
