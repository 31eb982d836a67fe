import { createSignal, Show, type JSX } from 'solid-js';
import type { ImportResult } from '../../../../domain/catalog-views';
import { importShopeeProducts } from '../../api/endpoints';
import { createAction } from '../../lib/action';
import ActionButton from '../ActionButton';
import ErrorMessage from '../ErrorMessage';
import FilePicker from '../FilePicker';
import ImportResultView from './ImportResultView';

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
        选择虾皮后台导出的商品表格（.xlsx）：每个 SKU
        一行，必需的列是商品ID、商品名稱、商品規格ID、商品規格；商品本身那一行（商品規格ID 为
        -）可有可无。重复导入只会更新商品名称、状态和规格，不会覆盖已填的拼多多链接、规格映射和手工新增的 SKU。
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
