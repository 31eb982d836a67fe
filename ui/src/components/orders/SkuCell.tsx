import { Match, Show, Switch, type JSX } from 'solid-js';
import type { OrderLine } from '../../api/endpoints';
import ErrorMessage from '../ErrorMessage';
import { createSkuCell } from './sku-cell';
import SkuPicker from './SkuPicker';

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
  const cell = createSkuCell(
    () => props.line,
    (line) => props.onChanged(line),
  );
  const addLabel = (): string => (props.line.shopee_product_known ? '去商品页添加规格' : '去导入虾皮商品');

  return (
    <div class="or-sku" data-testid="order-sku">
      <Switch>
        <Match when={cell.editing()}>
          <SkuPicker line={props.line} cell={cell} />
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
              <button type="button" class="btn btn-ghost" data-testid="order-sku-edit" onClick={cell.open}>
                更改
              </button>
              <button
                type="button"
                class="btn btn-ghost"
                data-testid="order-sku-clear"
                disabled={cell.busy()}
                onClick={() => void cell.save(null)}
              >
                清除
              </button>
            </>
          )}
        </Match>
        <Match when={props.line.match_state === 'sku_unknown'}>
          <a href={cell.productHref()} data-testid="order-sku-add">
            {addLabel()}
          </a>
        </Match>
        <Match when={true}>
          <button type="button" class="btn" data-testid="order-sku-edit" onClick={cell.open}>
            设置 SKU
          </button>
        </Match>
      </Switch>
      <ErrorMessage class="or-sku-error" testid="order-sku-error" message={cell.error()} />
    </div>
  );
}
