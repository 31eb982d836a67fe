import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { OPTION_WARNINGS, type MappingBoard, type PddSkuRow } from '../../../../domain/catalog-views';
import { clearMapping, getMappingBoard, setMapping } from '../../api/endpoints';
import { errorText } from '../../errors';
import { formatYuan } from '../../lib/money';
import OptionWarnings from './OptionWarnings';
import PriceNote from './PriceNote';
import PriceSource from './PriceSource';

/**
 * 规格映射: Shopee SKUs on the left, the PDD rows of the product's *current* PDD goods on the
 * right (price, availability, measured vs inferred price). Suggestions are exact text only;
 * nothing is mapped without the operator choosing it.
 */
export default function MappingDialog(props: { goodsId: string; onClose: () => void }): JSX.Element {
  const [board, { refetch }] = createResource(() => props.goodsId, getMappingBoard);
  const [selected, setSelected] = createSignal<string | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [notice, setNotice] = createSignal<string | null>(null);

  const current = () => (board.state === 'ready' || board.state === 'refreshing' ? board.latest : undefined);
  const selectedSku = () => current()?.shopee_skus.find((s) => s.sku_id === selected());
  const label = (row: { options: Record<string, string> }, dims: MappingBoard['dimensions']): string =>
    (dims.length > 0 ? dims.map((d) => row.options[d.key] ?? '') : Object.values(row.options)).join(' / ');

  const map = async (row: PddSkuRow): Promise<void> => {
    const sku = selected();
    if (!sku) return;
    setError(null);
    setNotice(null);
    try {
      const saved = await setMapping(sku, row.options);
      if (saved.warnings.length > 0)
        setNotice(`已映射，但这个规格${saved.warnings.map((w) => OPTION_WARNINGS[w]).join('、')}，下单前请确认`);
      await refetch();
    } catch (err) {
      setError(errorText(err));
    }
  };
  const clear = async (sku: string): Promise<void> => {
    setError(null);
    try {
      await clearMapping(sku);
      await refetch();
    } catch (err) {
      setError(errorText(err));
    }
  };

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
        <Show when={error()}>
          <p class="form-error" role="alert" data-testid="mapping-error">
            {error()}
          </p>
        </Show>
        <Show when={notice()}>
          <p class="form-warn" role="status" data-testid="mapping-warning">
            {notice()}
          </p>
        </Show>
        <Show when={board.error as unknown}>
          <p class="form-error">{errorText(board.error)}</p>
        </Show>
        <Show when={current()}>
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
                  <table class="cat-table" data-testid="mapping-shopee">
                    <thead>
                      <tr>
                        <th>SKU ID</th>
                        <th>颜色 / 尺码</th>
                        <th>映射到</th>
                      </tr>
                    </thead>
                    <tbody>
                      <For each={b().shopee_skus}>
                        {(s) => (
                          <tr
                            class={`clickable ${selected() === s.sku_id ? 'selected' : ''} ${s.parse_ok === 0 ? 'parse-failed' : ''}`}
                            data-testid="mapping-shopee-row"
                            data-sku-id={s.sku_id}
                            onClick={() => setSelected(s.sku_id)}
                          >
                            <td>{s.sku_id}</td>
                            <td>{s.color && s.size ? `${s.color} / ${s.size}` : s.spec_raw}</td>
                            <td>
                              <Show when={s.mapping} fallback={<span class="muted">待匹配</span>}>
                                {(m) => (
                                  <>
                                    → {label({ options: m().pdd_options }, b().dimensions)}
                                    <Show when={s.mapping_missing}>
                                      <span class="badge badge-warn"> 最新采集中已没有此规格</span>
                                    </Show>{' '}
                                    <button
                                      type="button"
                                      class="btn btn-ghost"
                                      data-testid="mapping-clear"
                                      onClick={(e) => {
                                        e.stopPropagation();
                                        void clear(s.sku_id);
                                      }}
                                    >
                                      清除
                                    </button>
                                  </>
                                )}
                              </Show>
                            </td>
                          </tr>
                        )}
                      </For>
                    </tbody>
                  </table>
                </div>
                <div>
                  <h4>拼多多规格{selectedSku() ? `（为 ${selectedSku()?.sku_id} 选择）` : ''}</h4>
                  <table class="cat-table" data-testid="mapping-pdd">
                    <thead>
                      <tr>
                        <For each={b().dimensions}>{(d) => <th>{d.name}</th>}</For>
                        <th>价格</th>
                        <th>库存</th>
                        <th />
                      </tr>
                    </thead>
                    <tbody>
                      <For
                        each={b().pdd_skus}
                        fallback={
                          <tr>
                            <td class="muted">还没有采集结果</td>
                          </tr>
                        }
                      >
                        {(row) => {
                          const suggested = () => selectedSku()?.suggestions.includes(row.option_key) ?? false;
                          const mapped = () => selectedSku()?.mapping?.pdd_option_key === row.option_key;
                          return (
                            <tr
                              class={suggested() ? 'suggested' : ''}
                              data-testid="mapping-pdd-row"
                              data-option-key={row.option_key}
                              data-suggested={suggested() ? '1' : '0'}
                            >
                              <For each={b().dimensions}>{(d) => <td>{row.options[d.key] ?? ''}</td>}</For>
                              <td>
                                {formatYuan(row.price_cent)}
                                <PriceSource row={row} />
                              </td>
                              <td>
                                {row.available ? '有货' : ''}
                                <OptionWarnings warnings={row.warnings} />
                              </td>
                              <td>
                                <Show
                                  when={mapped()}
                                  fallback={
                                    <button
                                      type="button"
                                      class="btn"
                                      disabled={!selected()}
                                      data-testid="mapping-choose"
                                      onClick={() => void map(row)}
                                    >
                                      {suggested() ? '选这个（文字一致）' : '选这个'}
                                    </button>
                                  }
                                >
                                  <span class="badge badge-collected">已映射</span>
                                </Show>
                              </td>
                            </tr>
                          );
                        }}
                      </For>
                    </tbody>
                  </table>
                </div>
              </div>
            </>
          )}
        </Show>
      </div>
    </div>
  );
}
