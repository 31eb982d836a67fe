import { For, Show, type JSX } from 'solid-js';
import type { ImportFailedRow, ImportResult } from '../../../../domain/catalog-views';
import { ListTable } from '../ListParts';

/** how many reasons the plain 「没有导入任何商品」 names before the full table */
const FIRST_REASONS = 3;

/**
 * What the import did. Nothing imported is said plainly, with the first reasons, never as a
 * success; rows that were skipped and SKUs imported with a spec to complete are told apart, so
 * 「已导入」 is only said of SKUs that were.
 */
export default function ImportResultView(props: { result: ImportResult }): JSX.Element {
  const nothing = () => props.result.products === 0 && props.result.skus === 0;
  const skipped = () => props.result.failed_rows.filter((f) => !f.sku_id);
  const toComplete = () => props.result.failed_rows.filter((f) => f.sku_id).length;
  return (
    <div data-testid="import-result" data-imported={nothing() ? '0' : '1'}>
      <Show when={!nothing()} fallback={<NothingImported failedRows={props.result.failed_rows} />}>
        <p>
          导入完成：商品 <strong data-testid="import-products">{props.result.products}</strong> 个，SKU{' '}
          <strong data-testid="import-skus">{props.result.skus}</strong> 个
          <Show when={props.result.manual_kept > 0}>，{props.result.manual_kept} 个手工维护的 SKU 保持不变</Show>。
        </p>
        <Show when={props.result.failed_rows.length === 0}>
          <p class="muted">没有失败的行。</p>
        </Show>
        <Show when={skipped().length > 0}>
          <p class="form-error" data-testid="import-skipped">
            有 {skipped().length} 行没有导入，原因见下表。
          </p>
        </Show>
        <Show when={toComplete() > 0}>
          <p class="form-warn" data-testid="import-to-complete">
            {toComplete()} 个 SKU 的规格解析失败，已导入，请在商品详情里补全颜色和尺码。
          </p>
        </Show>
      </Show>
      <Show when={props.result.failed_rows.length > 0}>
        <ListTable
          testid="import-failed-rows"
          columns={['Excel 行号', '原因']}
          items={props.result.failed_rows}
          loading={false}
          empty=""
        >
          {(f) => (
            <tr
              class={f.sku_id ? 'parse-failed' : ''}
              data-testid="import-failed-row"
              data-row={f.row}
              data-sku-id={f.sku_id}
            >
              <td>{f.row}</td>
              <td>
                {f.reason}
                <Show when={f.sku_id}>
                  <span class="badge badge-warn after-text" data-testid="import-failed-parse">
                    SKU {f.sku_id} 待补全
                  </span>
                </Show>
              </td>
            </tr>
          )}
        </ListTable>
      </Show>
    </div>
  );
}

/** 「没有导入任何商品」 and the first reasons, by Excel row number. */
function NothingImported(props: { failedRows: ImportFailedRow[] }): JSX.Element {
  return (
    <div class="form-error" role="alert" data-testid="import-nothing">
      <p>
        没有导入任何商品。
        {props.failedRows.length > 0
          ? `共 ${props.failedRows.length} 行有问题，前 ${Math.min(props.failedRows.length, FIRST_REASONS)} 行的原因：`
          : '表格里没有数据行。'}
      </p>
      <Show when={props.failedRows.length > 0}>
        <ul data-testid="import-first-reasons">
          <For each={props.failedRows.slice(0, FIRST_REASONS)}>
            {(f) => (
              <li>
                第 {f.row} 行：{f.reason}
              </li>
            )}
          </For>
        </ul>
        <p>请按原因改好表格（需要哪些列、怎么写，见操作员指南「导入虾皮商品」）后重新导入。</p>
      </Show>
    </div>
  );
}
