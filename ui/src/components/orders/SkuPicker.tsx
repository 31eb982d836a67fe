import { For, Match, Show, Switch, type JSX } from 'solid-js';
import type { OrderLine } from '../../api/endpoints';
import { errorText } from '../../errors';
import type { SkuCellState } from './sku-cell';

/** Choosing the line's SKU among the product's, with the way to add one that is missing. */
export default function SkuPicker(props: { line: OrderLine; cell: SkuCellState }): JSX.Element {
  const c = (): SkuCellState => props.cell;
  return (
    <>
      <Switch>
        <Match when={c().product.error as unknown}>
          <span class="or-sku-error" role="alert" data-testid="order-sku-error">
            {errorText(c().product.error)}
          </span>
        </Match>
        <Match when={c().product.state === 'ready' ? c().product() : undefined}>
          {(p) => (
            <select
              class="input"
              data-testid="order-sku-select"
              value={c().choice()}
              onChange={(e) => {
                c().setChoice(e.currentTarget.value);
                c().setMismatch(null);
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
        disabled={c().busy() || c().choice() === ''}
        onClick={() => void c().save(c().choice())}
      >
        保存
      </button>
      <button type="button" class="btn btn-ghost" data-testid="order-sku-cancel" onClick={() => c().setEditing(false)}>
        取消
      </button>
      <a href={c().productHref()} class="or-sub" data-testid="order-sku-product-link">
        {props.line.shopee_product_known ? '规格不在列表中？去商品页添加' : '商品尚未导入？去导入虾皮商品'}
      </a>
      <SpecMismatch line={props.line} cell={c()} />
    </>
  );
}

/** 规格不一致: the SKU the server refused, used anyway only on the operator's 仍然使用. */
function SpecMismatch(props: { line: OrderLine; cell: SkuCellState }): JSX.Element {
  const c = (): SkuCellState => props.cell;
  return (
    <Show when={c().mismatch()}>
      {(m) => (
        <p class="or-confirm" role="alert" data-testid="order-sku-mismatch">
          规格不一致：订单规格「{props.line.product_spec ?? '无'}」，所选规格「{m().skuSpec}
          」。确定用这个规格采购吗？{' '}
          <button
            type="button"
            class="btn btn-primary"
            data-testid="order-sku-mismatch-confirm"
            disabled={c().busy()}
            onClick={() => void c().save(m().skuId, true)}
          >
            仍然使用
          </button>{' '}
          <button
            type="button"
            class="btn btn-ghost"
            data-testid="order-sku-mismatch-cancel"
            onClick={() => c().setMismatch(null)}
          >
            重新选择
          </button>
        </p>
      )}
    </Show>
  );
}
