import { createSignal, Show, type JSX } from 'solid-js';
import type { ImportResult } from '../../../../domain/catalog-views';
import { importShopeeProducts } from '../../api/endpoints';
import { createAction } from '../../lib/action';
import ActionButton from '../ActionButton';
import ErrorMessage from '../ErrorMessage';
import FilePicker from '../FilePicker';
import { ListTable } from '../ListParts';

/**
 * 导入虾皮商品: the upload reports its progress so the operator sees it advance, then an
 * indeterminate bar while the admin reads and writes the workbook.
 */
export default function ImportPanel(props: { onDone: () => void }): JSX.Element {
  const [file, setFile] = createSignal<File | null>(null);
  const [progress, setProgress] = createSignal<number | null>(0);
  const [result, setResult] = createSignal<ImportResult | null>(null);
  const start = createAction(async () => {
    const f = file();
    if (!f) return;
    setResult(null);
    setProgress(0);
    setResult(await importShopeeProducts(f, setProgress));
    props.onDone();
  });

  return (
    <div class="card" data-testid="import-panel">
      <h3>导入虾皮商品</h3>
      <p class="muted">
        选择虾皮后台导出的商品表格（.xlsx）。重复导入只会更新商品名称、状态和规格，不会覆盖已填的拼多多链接、规格映射和手工新增的
        SKU。
      </p>
      <div class="inline-form">
        <FilePicker
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          testid="import-file"
          disabled={start.busy()}
          onChange={setFile}
        />
        <ActionButton
          action={start}
          class="btn btn-primary"
          testid="import-start"
          busyLabel="导入中…"
          disabled={!file()}
        >
          开始导入
        </ActionButton>
      </div>
      <Show when={start.busy()}>
        <ImportProgress progress={progress()} />
      </Show>
      <ErrorMessage testid="import-error" message={start.error()} />
      <Show when={result()}>{(r) => <ImportResultView result={r()} />}</Show>
    </div>
  );
}

/** The upload's percentage, then an indeterminate bar while the admin reads and writes. */
function ImportProgress(props: { progress: number | null }): JSX.Element {
  return (
    <div data-testid="import-progress">
      <p class="muted">
        {props.progress === null ? '正在解析并写入…' : `正在上传 ${Math.round((props.progress ?? 0) * 100)}%`}
      </p>
      <div class={`progress ${props.progress === null ? 'indeterminate' : ''}`}>
        <div style={{ width: props.progress === null ? undefined : `${Math.round((props.progress ?? 0) * 100)}%` }} />
      </div>
    </div>
  );
}

/** What the import did, and each row that needs the operator (a failed spec parse is imported, to complete). */
function ImportResultView(props: { result: ImportResult }): JSX.Element {
  return (
    <div data-testid="import-result">
      <p>
        导入完成：商品 <strong data-testid="import-products">{props.result.products}</strong> 个，SKU{' '}
        <strong data-testid="import-skus">{props.result.skus}</strong> 个
        <Show when={props.result.manual_kept > 0}>，{props.result.manual_kept} 个手工维护的 SKU 保持不变</Show>。
      </p>
      <Show when={props.result.failed_rows.length > 0} fallback={<p class="muted">没有失败的行。</p>}>
        <p class="form-error">
          有 {props.result.failed_rows.length} 行需要处理（规格解析失败的 SKU 已导入，请在商品详情里补全颜色和尺码）：
        </p>
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
