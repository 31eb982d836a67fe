import { parsePddGoodsId } from '../../domain/pdd-url';
import { CatalogErrors } from '../catalog/errors';
import type { AdminDb } from '../db/database';
import { ApiError, invalidInput } from '../../domain/api-error';
import { readIntSetting } from './settings';

/**
 * The rules a draft's fields are saved under, shared by the create (admin/purchase/drafts.ts) and
 * the edit (admin/purchase/draft-edit.ts) so the two can never judge the same field apart. The
 * options and the goods' collect are judged by admin/purchase/options.ts.
 */

/** The goods id a pasted PDD link names; a link without exactly one is refused. */
export function draftGoodsId(url: string): string {
  const parsed = parsePddGoodsId(url);
  if (!parsed.ok)
    throw invalidInput(
      CatalogErrors.PDD_URL_NO_GOODS_ID,
      'no single goods_id in the URL: paste the full PDD goods link',
    );
  return parsed.goodsId;
}

/**
 * Over `safety.max_quantity` a draft is refused when saved, with both numbers; the start checks
 * it again (admin/purchase/start.ts), since the limit may be lowered after the save.
 */
export async function checkQuantity(db: AdminDb, quantity: number): Promise<void> {
  let max: number;
  try {
    max = await readIntSetting(db, 'safety.max_quantity');
  } catch (err) {
    // a limit broken by hand refuses the start (SETTING_INVALID), not the saving of a draft
    if (err instanceof ApiError && err.code === 'SETTING_INVALID') return;
    throw err;
  }
  if (quantity > max)
    throw invalidInput('QUANTITY_OVER_LIMIT', `数量 ${quantity} 超过上限 ${max}`, { quantity, max_quantity: max });
}

/** The PDD goods' title and shop as collected, which a draft without a title of its own takes. */
export async function collectedNames(
  db: AdminDb,
  goodsId: string,
): Promise<{ title: string | null; shop_name: string | null } | undefined> {
  return db
    .selectFrom('pdd_products')
    .select(['title', 'shop_name'])
    .where('goods_id', '=', goodsId)
    .executeTakeFirst();
}
