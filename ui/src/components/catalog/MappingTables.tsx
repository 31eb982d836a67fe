import { For, Show, type JSX } from 'solid-js';
import type { MappingBoard, PddSkuRow } from '../../../../domain/catalog-views';
import { optionsLabel, type MappingBoardState } from './mapping-board';
import PriceStockCells from './PriceStockCells';

/** 虾皮 SKU（先选一个）: each Shopee SKU, what it is mapped to, 清除. */
export function ShopeeSkuPicker(props: { board: MappingBoard; state: MappingBoardState }): JSX.Element {
  const st = (): MappingBoardState => props.state;
  return (
    <table class="cat-table" data-testid="mapping-shopee">
      <thead>
        <tr>
          <th>SKU ID</th>
          <th>颜色 / 尺码</th>
          <th>映射到</th>
        </tr>
      </thead>
      <tbody>
        <For each={props.board.shopee_skus}>
          {(s) => (
            <tr
              class={`clickable ${st().selected() === s.sku_id ? 'selected' : ''} ${s.parse_ok === 0 ? 'parse-failed' : ''}`}
              data-testid="mapping-shopee-row"
              data-sku-id={s.sku_id}
              onClick={() => st().setSelected(s.sku_id)}
            >
              <td>{s.sku_id}</td>
              <td>{s.color && s.size ? `${s.color} / ${s.size}` : s.spec_raw}</td>
              <td>
                <Show when={s.mapping} fallback={<span class="muted">待匹配</span>}>
                  {(m) => (
                    <>
                      → {optionsLabel({ options: m().pdd_options }, props.board.dimensions)}
                      <Show when={s.mapping_missing}>
                        <span class="badge badge-warn"> 最新采集中已没有此规格</span>
                      </Show>{' '}
                      <button
                        type="button"
                        class="btn btn-ghost"
                        data-testid="mapping-clear"
                        onClick={(e) => {
                          e.stopPropagation();
                          st().clear(s.sku_id);
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
  );
}

/** 拼多多规格: the collected options with price and stock, 选这个 for the picked Shopee SKU. */
export function PddOptionPicker(props: { board: MappingBoard; state: MappingBoardState }): JSX.Element {
  return (
    <table class="cat-table" data-testid="mapping-pdd">
      <thead>
        <tr>
          <For each={props.board.dimensions}>{(d) => <th>{d.name}</th>}</For>
          <th>价格</th>
          <th>库存</th>
          <th />
        </tr>
      </thead>
      <tbody>
        <For
          each={props.board.pdd_skus}
          fallback={
            <tr>
              <td class="muted">还没有采集结果</td>
            </tr>
          }
        >
          {(row) => <PddOptionRow row={row} board={props.board} state={props.state} />}
        </For>
      </tbody>
    </table>
  );
}

function PddOptionRow(props: { row: PddSkuRow; board: MappingBoard; state: MappingBoardState }): JSX.Element {
  const st = (): MappingBoardState => props.state;
  const suggested = (): boolean => st().selectedSku()?.suggestions.includes(props.row.option_key) ?? false;
  const mapped = (): boolean => st().selectedSku()?.mapping?.pdd_option_key === props.row.option_key;
  return (
    <tr
      class={suggested() ? 'suggested' : ''}
      data-testid="mapping-pdd-row"
      data-option-key={props.row.option_key}
      data-suggested={suggested() ? '1' : '0'}
    >
      <For each={props.board.dimensions}>{(d) => <td>{props.row.options[d.key] ?? ''}</td>}</For>
      <PriceStockCells row={props.row} />
      <td>
        <Show
          when={mapped()}
          fallback={
            <button
              type="button"
              class="btn"
              disabled={!st().selected()}
              data-testid="mapping-choose"
              onClick={() => st().map(props.row)}
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
}
