import { createResource, createSignal } from 'solid-js';
import { ApiError } from '../../api/client';
import { getShopeeProduct, setOrderLineSku, setOrderLineSkuConfirmed, type OrderLine } from '../../api/endpoints';
import { errorText } from '../../errors';
import { hrefFor } from '../../router';

/**
 * An order line's Shopee SKU being set: the picker's state, the product's SKUs (loaded only when
 * the picker opens: most lines are never edited), and saving with the 规格不一致 confirmation.
 */
export function createSkuCell(line: () => OrderLine, onChanged: (line: OrderLine) => void) {
  const [editing, setEditing] = createSignal(false);
  const [choice, setChoice] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  /** The SKU the server refused as 规格不一致, waiting for the operator's 仍然使用 */
  const [mismatch, setMismatch] = createSignal<{ skuId: string; skuSpec: string } | null>(null);
  const [product] = createResource(
    () => (editing() ? line().shopee_goods_id : false),
    (goodsId) => getShopeeProduct(goodsId),
  );
  // A product never imported has no page to add a spec on: the way is the import (商品 page).
  const productHref = (): string =>
    hrefFor(line().shopee_product_known ? `/products/${encodeURIComponent(line().shopee_goods_id)}` : '/products');

  const save = async (skuId: string | null, confirmed = false): Promise<void> => {
    if (busy()) return;
    setBusy(true);
    setError(null);
    try {
      const saved =
        confirmed && skuId !== null
          ? await setOrderLineSkuConfirmed(line().syb_id, skuId)
          : await setOrderLineSku(line().syb_id, skuId);
      setEditing(false);
      setMismatch(null);
      onChanged(saved);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'SPEC_MISMATCH' && skuId !== null) {
        const skuSpec = (err.details as { sku_spec?: unknown } | undefined)?.sku_spec;
        setMismatch({ skuId, skuSpec: typeof skuSpec === 'string' ? skuSpec : skuId });
      } else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const open = (): void => {
    setChoice(line().shopee_sku_id ?? '');
    setError(null);
    setMismatch(null);
    setEditing(true);
  };

  return {
    editing,
    setEditing,
    choice,
    setChoice,
    busy,
    error,
    mismatch,
    setMismatch,
    product,
    productHref,
    save,
    open,
  };
}
export type SkuCellState = ReturnType<typeof createSkuCell>;
