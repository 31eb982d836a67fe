import { Show, type JSX } from 'solid-js';
import { errorText } from '../../errors';
import ErrorMessage from '../ErrorMessage';
import { createMappingBoard } from './mapping-board';
import { PddOptionPicker, ShopeeSkuPicker } from './MappingTables';
import PriceNote from './PriceNote';

/**
 * 规格映射: Shopee SKUs on the left, the PDD rows of the product's *current* PDD goods on the
 * right (price, availability, measured vs inferred price). Suggestions are exact text only;
 * nothing is mapped without the operator choosing it.
 */
export default function MappingDialog(props: { goodsId: string; onClose: () => void }): JSX.Element {
  const state = createMappingBoard(() => props.goodsId);
  const { board, error, notice } = state;

  return (
    <div
      class="dialog-backdrop"
      data-testid="mapping-dialog"
      onClick={(e) => e.target === e.currentTarget && props.onClose()}
    >
      <div class="dialog" role="dialog" aria-label="规格映射">
        <div class="dialog-head">
          <h3>规格映射</h3>
          <button type="button" class="btn btn-ghost" onClick={() => props.onClose()} data-testid="mapping-close">
            关闭
          </button>
        </div>
        <ErrorMessage testid="mapping-error" message={error()} />
        <Show when={notice()}>
          <p class="form-warn" role="status" data-testid="mapping-warning">
            {notice()}
          </p>
        </Show>
        <Show when={board.error as unknown}>
          <p class="form-error">{errorText(board.error)}</p>
        </Show>
        <Show when={state.current()}>
          {(b) => (
            <>
              <p class="muted">
                拼多多商品 {b().pdd_goods_id ?? '—'} {b().pdd_title ?? ''}
                。映射只属于当前的拼多多商品；更换拼多多商品后旧映射不会生效，换回来会恢复。{' '}
                <PriceNote rows={b().pdd_skus} />
              </p>
              <div class="map-grid">
                <div>
                  <h4>虾皮 SKU（先选一个）</h4>
                  <ShopeeSkuPicker board={b()} state={state} />
                </div>
                <div>
                  <h4>拼多多规格{state.selectedSku() ? `（为 ${state.selectedSku()?.sku_id} 选择）` : ''}</h4>
                  <PddOptionPicker board={b()} state={state} />
                </div>
              </div>
            </>
          )}
        </Show>
      </div>
    </div>
  );
}
