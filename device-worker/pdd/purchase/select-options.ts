import type { FinalPanelReading, PurchaseTarget } from '../../../domain/contracts/device-activities';
import { parsePddGoodsId } from '../../../domain/pdd-url';
import { DeviceError } from '../../errors';
import type { OpenPanel } from '../session';
import type { PurchaseSession } from './purchase-session';
import { asPurchaseFailure, readBack, requireSelection } from './read-back';

/** The panel with the task's options selected and proven, dimension names and values in page order. */
interface SelectedPanel {
  panel: OpenPanel;
  names: string[];
  values: string[];
}

/**
 * The first steps of a purchase on the phone: open exactly the task's goods, open its spec
 * panel, and select the task's value in every dimension by exact, unique equality, each
 * selection read back from the dump after its tap. Fills in the title, shop and options read.
 */
export async function openAndSelect(
  session: PurchaseSession,
  target: PurchaseTarget,
  reading: Partial<FinalPanelReading>,
): Promise<SelectedPanel> {
  // The page shows no goods id, so the id is bound by the URL we open: it must be the canonical
  // URL of exactly this id (and the task's URL must name the same id).
  const url = session.profile.goodsUrl(target.goodsId);
  const fromUrl = parsePddGoodsId(url);
  const fromTask = parsePddGoodsId(target.goodsUrl);
  if (!fromUrl.ok || fromUrl.goodsId !== target.goodsId || !fromTask.ok || fromTask.goodsId !== target.goodsId) {
    throw new DeviceError('GOODS_MISMATCH', `goods url ${target.goodsUrl} does not name goods ${target.goodsId}`);
  }
  const goods = await asPurchaseFailure(() => session.openGoods(target.goodsId));
  reading.title = goods.title;
  reading.shopName = goods.shopName;

  const panel = await asPurchaseFailure(() => session.openSpecPanel(goods));
  const names = panel.names;
  const values = taskValues(names, target);
  for (let d = 0; d < names.length; d++) {
    if (d === 1)
      await readBack(() => session.revealSizes(panel, values[0] as string), 'revealing the later dimensions');
    await selectDimension(session, panel, d, values);
  }
  requireSelection(panel.state, names, values);
  reading.options = Object.fromEntries(names.map((n, i) => [n, values[i] as string]));
  return { panel, names, values };
}

/** The task's value of every dimension the panel shows, in page order; neither side may name one the other lacks. */
function taskValues(names: readonly string[], target: PurchaseTarget): string[] {
  const wanted = Object.keys(target.options);
  const unknown = wanted.filter((n) => !names.includes(n));
  if (unknown.length > 0)
    throw new DeviceError(
      'OPTION_NOT_FOUND',
      `the panel has no dimension ${unknown.join('/')} (it shows ${names.join('/')})`,
      {},
      { kind: 'dimension_missing', dimensions: unknown, shown: [...names] },
    );
  const unset = names.filter((n) => !(n in target.options));
  if (unset.length > 0)
    throw new DeviceError(
      'OPTION_NOT_FOUND',
      `the task gives no option for ${unset.join('/')}`,
      {},
      { kind: 'option_not_given', dimensions: unset },
    );
  return names.map((n) => target.options[n] as string);
}

/** Selects dimension `d`'s value, found once and enabled, and reads the selection back. */
async function selectDimension(session: PurchaseSession, panel: OpenPanel, d: number, values: string[]): Promise<void> {
  const names = panel.names;
  const section = panel.state.sections[d];
  const dimension = names[d] as string;
  if (!section)
    throw new DeviceError(
      'OPTION_NOT_FOUND',
      `dimension ${dimension} is not in view`,
      {},
      { kind: 'dimension_not_in_view', dimension },
    );
  const value = values[d] as string;
  const matches = section.options.filter((o) => o.text === value);
  if (matches.length === 0)
    throw new DeviceError(
      'OPTION_NOT_FOUND',
      `${dimension} has no option ${JSON.stringify(value)} (it shows ${section.options.map((o) => o.text).join(' / ')})`,
      {},
      { kind: 'option_missing', dimension, option: value, shown: section.options.map((o) => o.text) },
    );
  if (matches.length > 1)
    throw new DeviceError(
      'OPTION_AMBIGUOUS',
      `${dimension} shows ${JSON.stringify(value)} ${matches.length} times`,
      {},
      { kind: 'option_ambiguous', dimension, option: value, count: matches.length },
    );
  if (!matches[0]?.enabled)
    throw new DeviceError(
      'OPTION_UNAVAILABLE',
      `${dimension} = ${JSON.stringify(value)} is sold out or not selectable`,
      {},
      { kind: 'option_sold_out', dimension, option: value },
    );
  const expect = names.map((_, i) => (i <= d ? (values[i] as string) : null));
  await readBack(() => session.selectOption(panel, d, value, expect), `${names[d]} = ${value}`);
}
