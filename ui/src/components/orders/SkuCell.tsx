import { createResource, createSignal, For, Match, Show, Switch, type JSX } from 'solid-js';
import { ApiError } from '../../api/client';
import { getShopeeProduct, setOrderLineSku, setOrderLineSkuConfirmed, type OrderLine } from '../../api/endpoints';
import { errorText } from '../../errors';
import { hrefFor } from '../../router';

interface Props {
  line: OrderLine;
  /** The line as the admin now has it, after a set or a clear. */
  onChanged: (line: OrderLine) => void;
}

/**
 * The line's Shopee SKU: set or change it from the product's local SKUs, clear it; when the
 * product has no SKU yet (SKU 未收录), the way to its page to add one.
 */
export default function SkuCell(props: Props): JSX.Element {
  const [editing, setEditing] = createSignal(false);
  const [choice, setChoice] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  /** The SKU the server refused as 规格不一致, waiting for the operator's 仍然使用 */
  const [mismatch, setMismatch] = createSignal<{ skuId: string; skuSpec: string } | null>(null);
  // Loaded only when the picker opens: most lines are never edited.
  const [product] = createResource(
    () => (editing() ? props.line.shopee_goods_id : false),
    (goodsId) => getShopeeProduct(goodsId),
  );
  // A product never imported has no page to add a spec on: the way is the import (商品 page).
  const productHref = (): string =>
    hrefFor(
      props.line.shopee_product_known ? `/products/${encodeURIComponent(props.line.shopee_goods_id)}` : '/products',
    );
  const addLabel = (): string => (props.line.shopee_product_known ? '去商品页添加规格' : '去导入虾皮商品');

  const save = async (skuId: string | null, confirmed = false): Promise<void> => {
    if (busy()) return;
    setBusy(true);
    setError(null);
    try {
      const line =
        confirmed && skuId !== null
          ? await setOrderLineSkuConfirmed(props.line.syb_id, skuId)
          : await setOrderLineSku(props.line.syb_id, skuId);
      setEditing(false);
      setMismatch(null);
      props.onChanged(line);
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
    setChoice(props.line.shopee_sku_id ?? '');
    setError(null);
    setMismatch(null);
    setEditing(true);
  };

  return (
    <div class="or-sku" data-testid="order-sku">
      <Switch>
        <Match when={editing()}>
          <Switch>
            <Match when={product.error as unknown}>
              <span class="or-sku-error" role="alert" data-testid="order-sku-error">
                {errorText(product.error)}
              </span>
            </Match>
            <Match when={product.state === 'ready' ? product() : undefined}>
              {(p) => (
                <select
                  class="input"
                  data-testid="order-sku-select"
                  value={choice()}
                  onChange={(e) => {
                    setChoice(e.currentTarget.value);
                    setMismatch(null);
                  }}
                >
                  <option value="">请选择规格</option>
                  <For each={p().skus}>
                    {(s) => (
                      <option value={s.sku_id}>
                        {s.spec_raw}（{s.sku_id}）
                      </option>
                    )}
                  </For>
                </select>
              )}
            </Match>
            <Match when={true}>
              <span class="muted">正在加载规格…</span>
            </Match>
          </Switch>
          <button
            type="button"
            class="btn btn-primary"
            data-testid="order-sku-save"
            disabled={busy() || choice() === ''}
            onClick={() => void save(choice())}
          >
            保存
          </button>
          <button type="button" class="btn btn-ghost" data-testid="order-sku-cancel" onClick={() => setEditing(false)}>
            取消
          </button>
          <a href={productHref()} class="or-sub" data-testid="order-sku-product-link">
            {props.line.shopee_product_known ? '规格不在列表中？去商品页添加' : '商品尚未导入？去导入虾皮商品'}
          </a>
          <Show when={mismatch()}>
            {(m) => (
              <p class="or-confirm" role="alert" data-testid="order-sku-mismatch">
                规格不一致：订单规格「{props.line.product_spec ?? '无'}」，所选规格「{m().skuSpec}
                」。确定用这个规格采购吗？{' '}
                <button
                  type="button"
                  class="btn btn-primary"
                  data-testid="order-sku-mismatch-confirm"
                  disabled={busy()}
                  onClick={() => void save(m().skuId, true)}
                >
                  仍然使用
                </button>{' '}
                <button
                  type="button"
                  class="btn btn-ghost"
                  data-testid="order-sku-mismatch-cancel"
                  onClick={() => setMismatch(null)}
                >
                  重新选择
                </button>
              </p>
            )}
          </Show>
        </Match>
        <Match when={props.line.shopee_sku_id}>
          {(skuId) => (
            <>
              <span class="tk-mono" data-testid="order-sku-id">
                {skuId()}
              </span>
              <Show when={props.line.shopee_sku_spec}>
                {(spec) => (
                  <span class="or-sub" data-testid="order-sku-spec">
                    {spec()}
                  </span>
                )}
              </Show>
              <button type="button" class="btn btn-ghost" data-testid="order-sku-edit" onClick={open}>
                更改
              </button>
              <button
                type="button"
                class="btn btn-ghost"
                data-testid="order-sku-clear"
                disabled={busy()}
                onClick={() => void save(null)}
              >
                清除
              </button>
            </>
          )}
        </Match>
        <Match when={props.line.match_state === 'sku_unknown'}>
          <a href={productHref()} data-testid="order-sku-add">
            {addLabel()}
          </a>
        </Match>
        <Match when={true}>
          <button type="button" class="btn" data-testid="order-sku-edit" onClick={open}>
            设置 SKU
          </button>
        </Match>
      </Switch>
      <Show when={error()}>
        {(msg) => (
          <p class="or-sku-error" role="alert" data-testid="order-sku-error">
            {msg()}
          </p>
        )}
      </Show>
    </div>
  );
}
