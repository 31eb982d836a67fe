import { createResource, createSignal } from 'solid-js';
import { ApiError } from '../../api/client';
import { getShopeeProduct, setOrderLineSku, setOrderLineSkuConfirmed, type OrderLine } from '../../api/endpoints';
import { createAction } from '../../lib/action';
import { hrefFor } from '../../router';

/**
 * An order line's Shopee SKU being set: the picker's state, the product's SKUs (loaded only when
 * the picker opens: most lines are never edited), and saving with the 规格不一致 confirmation.
 */
export function createSkuCell(line: () => OrderLine, onChanged: (line: OrderLine) => void) {
  const [editing, setEditing] = createSignal(false);
  const [choice, setChoice] = createSignal('');
  /** The SKU the server refused as 规格不一致, waiting for the operator's 仍然使用 */
  const [mismatch, setMismatch] = createSignal<{ skuId: string; skuSpec: string } | null>(null);
  const [product] = createResource(
    () => (editing() ? line().shopee_goods_id : false),
    (goodsId) => getShopeeProduct(goodsId),
  );
  // A product never imported has no page to add a spec on: the way is the import (商品 page).
  const productHref = (): string =>
    hrefFor(line().shopee_product_known ? `/products/${encodeURIComponent(line().shopee_goods_id)}` : '/products');

  const save = createAction<[skuId: string | null, confirmed?: boolean], void>(
    async (skuId, confirmed = false) => {
      const saved =
        confirmed && skuId !== null
          ? await setOrderLineSkuConfirmed(line().syb_id, skuId)
          : await setOrderLineSku(line().syb_id, skuId);
      setEditing(false);
      setMismatch(null);
      onChanged(saved);
    },
    {
      // 规格不一致 is a question to the operator (仍然使用), not an error
      failure: (err, text, skuId) => {
        if (!(err instanceof ApiError && err.code === 'SPEC_MISMATCH' && skuId !== null)) return text;
        const skuSpec = (err.details as { sku_spec?: unknown } | undefined)?.sku_spec;
        setMismatch({ skuId, skuSpec: typeof skuSpec === 'string' ? skuSpec : skuId });
        return null;
      },
    },
  );

  const open = (): void => {
    setChoice(line().shopee_sku_id ?? '');
    save.setError(null);
    setMismatch(null);
    setEditing(true);
  };

  return {
    editing,
    setEditing,
    choice,
    setChoice,
    busy: save.busy,
    error: save.error,
    mismatch,
    setMismatch,
    product,
    productHref,
    save: save.run,
    open,
  };
}
export type SkuCellState = ReturnType<typeof createSkuCell>;
