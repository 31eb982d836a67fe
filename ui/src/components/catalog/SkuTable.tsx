import { createSignal, For, Show, type JSX } from 'solid-js';
import type { PddSkuRow, ShopeeSkuView } from '../../../../domain/catalog-views';
import { addManualSku, fixSku } from '../../api/endpoints';
import { formatYuan } from '../../lib/money';
import { hrefFor } from '../../router';
import { ListTable } from '../ListParts';
import { TextInput } from '../TextField';
import PriceSource from './PriceSource';

/** A product page's action: run it, then say `ok` or the error (product-detail.ts). */
export type Act = (fn: () => Promise<unknown>, ok: string) => Promise<unknown>;

/** What the operator fills in of a SKU, completing a parse failure or adding one by hand. */
const SKU_TEXTS = [
  { key: 'color', placeholder: '颜色' },
  { key: 'size', placeholder: '尺码' },
  { key: 'advice', placeholder: '建议（可空）' },
] as const;
type SkuTexts = Record<(typeof SKU_TEXTS)[number]['key'], string>;

/** A SKU's texts as typed, and what the server takes of them (an empty 建议 is none). */
function createSkuTexts(initial: () => SkuTexts) {
  const [texts, setTexts] = createSignal<SkuTexts>(initial());
  return {
    texts,
    set: (key: keyof SkuTexts, value: string): void => void setTexts({ ...texts(), [key]: value }),
    reset: (): void => void setTexts(initial()),
    complete: (): boolean => texts().color.trim() !== '' && texts().size.trim() !== '',
    body: () => ({ color: texts().color, size: texts().size, advice: texts().advice || null }),
  };
}
type SkuTextsState = ReturnType<typeof createSkuTexts>;

/** The texts' boxes; `testid` is the prefix (`sku` → `sku-color`), `placeholders` says what each is. */
function SkuTextInputs(props: {
  state: SkuTextsState;
  testid: string;
  placeholders: boolean;
  wrap: (input: JSX.Element) => JSX.Element;
}): JSX.Element {
  return (
    <For each={SKU_TEXTS}>
      {(t) =>
        props.wrap(
          <TextInput
            placeholder={props.placeholders ? t.placeholder : undefined}
            testid={`${props.testid}-${t.key}`}
            value={props.state.texts()[t.key]}
            onValue={(v) => props.state.set(t.key, v)}
          />,
        )
      }
    </For>
  );
}

/** `collected`: the current PDD goods has a collect, so a mapped SKU can be bought from here. */
export function SkuTable(props: { skus: ShopeeSkuView[]; act: Act; collected: boolean }): JSX.Element {
  return (
    <ListTable
      testid="sku-table"
      columns={['SKU ID', '规格原文', '颜色', '尺码', '建议', '映射', '']}
      items={props.skus}
      loading={false}
      empty="没有 SKU"
    >
      {(s) => <SkuRow sku={s} act={props.act} buyable={props.collected && s.mapping !== null} />}
    </ListTable>
  );
}

function SkuRow(props: { sku: ShopeeSkuView; act: Act; buyable: boolean }): JSX.Element {
  const [editing, setEditing] = createSignal(false);
  const fields = createSkuTexts(() => ({
    color: props.sku.color ?? '',
    size: props.sku.size ?? '',
    advice: props.sku.advice ?? '',
  }));
  const save = (): Promise<unknown> =>
    props.act(async () => {
      await fixSku(props.sku.sku_id, fields.body());
      setEditing(false);
    }, `已保存 SKU ${props.sku.sku_id}`);
  return (
    <tr
      class={props.sku.parse_ok === 0 ? 'parse-failed' : ''}
      data-testid="sku-row"
      data-sku-id={props.sku.sku_id}
      data-parse-ok={props.sku.parse_ok}
      data-is-manual={props.sku.is_manual}
    >
      <td>
        {props.sku.sku_id}
        <Show when={props.sku.is_manual === 1}>
          <span class="badge after-text" data-testid="sku-manual" title="手工维护：重新导入不会覆盖">
            手工
          </span>
        </Show>
      </td>
      <td>{props.sku.spec_raw}</td>
      <Show
        when={editing()}
        fallback={
          <>
            <td>{props.sku.color ?? <span class="badge badge-warn">待补全</span>}</td>
            <td>{props.sku.size ?? <span class="badge badge-warn">待补全</span>}</td>
            <td>{props.sku.advice ?? '—'}</td>
          </>
        }
      >
        <SkuTextInputs state={fields} testid="sku" placeholders={false} wrap={(input) => <td>{input}</td>} />
      </Show>
      <td>
        {props.sku.mapping ? (
          <>
            {Object.values(props.sku.mapping.pdd_options).join(' / ')}
            <MappedPrice row={props.sku.pdd_sku} />
          </>
        ) : (
          <span class="muted">待匹配</span>
        )}
      </td>
      <SkuRowActions
        sku={props.sku}
        editing={editing()}
        canSave={fields.complete()}
        buyable={props.buyable}
        onEdit={() => setEditing(true)}
        onSave={() => void save()}
        onCancel={() => setEditing(false)}
      />
    </tr>
  );
}

/** The mapped combination's price in the last collect, 实测 or 推测价格; said when the collect no longer has it. */
function MappedPrice(props: { row: PddSkuRow | null }): JSX.Element {
  return (
    <Show
      when={props.row}
      fallback={
        <span class="muted" data-testid="sku-pdd-missing">
          （上次采集没有这个规格）
        </span>
      }
    >
      {(row) => (
        <span data-testid="sku-pdd-price">
          {' '}
          {formatYuan(row().price_cent)}
          <PriceSource row={row()} />
        </span>
      )}
    </Show>
  );
}

/** 补全 / 修改, then 保存 / 取消; 采购 when the SKU is mapped to collected goods. */
function SkuRowActions(props: {
  sku: ShopeeSkuView;
  editing: boolean;
  canSave: boolean;
  buyable: boolean;
  onEdit: () => void;
  onSave: () => void;
  onCancel: () => void;
}): JSX.Element {
  return (
    <td>
      <Show
        when={props.editing}
        fallback={
          <button type="button" class="btn btn-ghost" data-testid="sku-edit" onClick={() => props.onEdit()}>
            {props.sku.parse_ok === 0 ? '补全' : '修改'}
          </button>
        }
      >
        <button
          type="button"
          class="btn btn-primary"
          disabled={!props.canSave}
          data-testid="sku-save"
          onClick={() => props.onSave()}
        >
          保存
        </button>
        <button type="button" class="btn btn-ghost" onClick={() => props.onCancel()}>
          取消
        </button>
      </Show>
      {/* the task form pre-filled from the mapping and the last collect */}
      <Show when={props.buyable && !props.editing}>
        <a
          class="btn btn-primary"
          href={hrefFor(`/tasks/new?sku=${encodeURIComponent(props.sku.sku_id)}`)}
          data-testid="sku-purchase"
        >
          采购
        </a>
      </Show>
    </td>
  );
}

export function AddSku(props: { goodsId: string; act: Act }): JSX.Element {
  const [skuId, setSkuId] = createSignal('');
  const fields = createSkuTexts(() => ({ color: '', size: '', advice: '' }));
  const valid = (): boolean => /^\d+$/.test(skuId().trim()) && fields.complete();
  const add = (): Promise<unknown> =>
    props.act(async () => {
      await addManualSku(props.goodsId, { sku_id: skuId().trim(), ...fields.body() });
      setSkuId('');
      fields.reset();
    }, '已手工新增 SKU');
  return (
    <div class="inline-form" style={{ 'margin-top': '8px' }} data-testid="sku-add">
      <span class="muted">手工新增 SKU：</span>
      <TextInput placeholder="商品规格ID" value={skuId()} onValue={setSkuId} testid="sku-add-id" />
      <SkuTextInputs state={fields} testid="sku-add" placeholders wrap={(input) => input} />
      <button type="button" class="btn" disabled={!valid()} onClick={() => void add()} data-testid="sku-add-save">
        新增
      </button>
    </div>
  );
}
