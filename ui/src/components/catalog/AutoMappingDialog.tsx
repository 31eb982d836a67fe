import { createResource, For, Show, type JSX } from 'solid-js';
import {
  AUTO_MAPPING_SKIPS,
  OPTION_WARNINGS,
  type AutoMappingPreview,
  type PddSkuRow,
} from '../../../../domain/catalog-views';
import { applyAutoMappings, getAutoMappings } from '../../api/auto-mappings';
import { ApiError } from '../../api/client';
import { errorText } from '../../errors';
import { createAction } from '../../lib/action';
import { formatYuan } from '../../lib/money';
import ErrorMessage from '../ErrorMessage';
import FormDialog from '../FormDialog';
import { optionsLabel } from './mapping-board';
import PriceSource from './PriceSource';

/**
 * 按文字一致全部映射: what would be mapped (虾皮规格 → 拼多多规格, price) and what is left alone
 * with why, before anything is written. Confirming writes exactly the list shown; when it changed
 * meanwhile nothing is written and the list is read again.
 */
export default function AutoMappingDialog(props: {
  goodsId: string;
  onClose: () => void;
  /** the mappings were written; `count` of them */
  onDone: (count: number) => void;
}): JSX.Element {
  const [preview, { refetch }] = createResource(() => props.goodsId, getAutoMappings);
  const current = (): AutoMappingPreview | undefined =>
    preview.state === 'ready' || preview.state === 'refreshing' ? preview.latest : undefined;
  const apply = createAction(
    async (p: AutoMappingPreview) => {
      const { mapped } = await applyAutoMappings(p);
      props.onDone(mapped.length);
    },
    {
      failure: async (err, text) => {
        if (err instanceof ApiError && err.code === 'AUTO_MAPPING_CHANGED') await refetch();
        return text;
      },
    },
  );
  const count = (): number => current()?.mappable.length ?? 0;

  return (
    <FormDialog
      title="按文字一致全部映射"
      testid="auto-mapping-dialog"
      onClose={() => props.onClose()}
      submitLabel={`确认映射 ${count()} 个 SKU`}
      busyLabel="正在映射…"
      submitTestid="auto-mapping-confirm"
      backTestid="auto-mapping-back"
      busy={apply.busy() || count() === 0}
      onSubmit={() => {
        const p = current();
        if (p) void apply.run(p);
      }}
    >
      <ErrorMessage message={preview.error ? errorText(preview.error) : null} />
      <ErrorMessage testid="auto-mapping-error" message={apply.error()} />
      <Show when={current()} fallback={<p class="muted">正在比对规格文字…</p>}>
        {(p) => <PreviewLists preview={p()} />}
      </Show>
    </FormDialog>
  );
}

function PreviewLists(props: { preview: AutoMappingPreview }): JSX.Element {
  const label = (row: PddSkuRow): string => optionsLabel(row, props.preview.dimensions);
  return (
    <>
      <p class="muted">
        虾皮规格与拼多多规格文字完全一致（不分简繁、全半角、大小写，忽略空格和分隔符）才映射。
        <Show when={props.preview.already_mapped > 0}>已映射的 {props.preview.already_mapped} 个 SKU 不动。</Show>
      </p>
      <h4>将映射（{props.preview.mappable.length}）</h4>
      <table class="cat-table" data-testid="auto-mapping-list">
        <thead>
          <tr>
            <th>SKU ID</th>
            <th>虾皮规格</th>
            <th>拼多多规格</th>
            <th>价格</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.preview.mappable} fallback={<EmptyRow text="没有可以按文字映射的 SKU" />}>
            {(m) => (
              <tr data-testid="auto-mapping-row" data-sku-id={m.sku_id}>
                <td>{m.sku_id}</td>
                <td>{m.spec_raw}</td>
                <td>→ {label(m.pdd)}</td>
                <td>
                  {formatYuan(m.pdd.price_cent)}
                  <PriceSource row={m.pdd} />
                  <For each={m.pdd.warnings}>
                    {(w) => <span class="badge badge-warn after-text">{OPTION_WARNINGS[w]}</span>}
                  </For>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <Show when={props.preview.skipped.length > 0}>
        <h4>不映射（{props.preview.skipped.length}），请在「规格映射」里手动选择</h4>
        <table class="cat-table" data-testid="auto-mapping-skipped-list">
          <tbody>
            <For each={props.preview.skipped}>
              {(s) => (
                <tr data-testid="auto-mapping-skipped" data-sku-id={s.sku_id} data-reason={s.reason}>
                  <td>{s.sku_id}</td>
                  <td>{s.spec_raw}</td>
                  <td>
                    {AUTO_MAPPING_SKIPS[s.reason]}
                    <Show when={s.candidates.length > 0}>：{s.candidates.map(label).join('；')}</Show>
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </Show>
    </>
  );
}

function EmptyRow(props: { text: string }): JSX.Element {
  return (
    <tr>
      <td colSpan={4} class="muted">
        {props.text}
      </td>
    </tr>
  );
}
