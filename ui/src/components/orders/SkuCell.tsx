import { createResource, createSignal, For, Match, Show, Switch, type JSX } from 'solid-js';
import { getShopeeProduct, setOrderLineSku, type OrderLine } from '../../api/endpoints';
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
  // Loaded only when the picker opens: most lines are never edited.
  const [product] = createResource(
    () => (editing() ? props.line.shopee_goods_id : false),
    (goodsId) => getShopeeProduct(goodsId),
  );
  const productHref = (): string => hrefFor(`/products/${encodeURIComponent(props.line.shopee_goods_id)}`);

  const save = async (skuId: string | null): Promise<void> => {
    if (busy()) return;
    setBusy(true);
    setError(null);
    try {
      const line = await setOrderLineSku(props.line.syb_id, skuId);
      setEditing(false);
      props.onChanged(line);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const open = (): void => {
    setChoice(props.line.shopee_sku_id ?? '');
    setError(null);
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
                  onChange={(e) => setChoice(e.currentTarget.value)}
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
            规格不在列表中？去商品页添加
          </a>
        </Match>
        <Match when={props.line.shopee_sku_id}>
          {(skuId) => (
            <>
              <span class="tk-mono" data-testid="order-sku-id">
                {skuId()}
              </span>
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
            去商品页添加规格
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
