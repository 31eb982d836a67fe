import { createSignal, For, Show, type JSX } from 'solid-js';
import type { ShopeeSkuView } from '../../../../domain/catalog-views';
import { addManualSku, fixSku } from '../../api/endpoints';
import { hrefFor } from '../../router';

/** A product page's action: run it, then say `ok` or the error (ProductDetailPage.tsx). */
export type Act = (fn: () => Promise<unknown>, ok: string) => Promise<void>;

interface SkuFields {
  color: () => string;
  setColor: (v: string) => void;
  size: () => string;
  setSize: (v: string) => void;
  advice: () => string;
  setAdvice: (v: string) => void;
}

/** `collected`: the current PDD goods has a collect, so a mapped SKU can be bought from here. */
export function SkuTable(props: { skus: ShopeeSkuView[]; act: Act; collected: boolean }): JSX.Element {
  return (
    <table class="cat-table" data-testid="sku-table">
      <thead>
        <tr>
          <th>SKU ID</th>
          <th>规格原文</th>
          <th>颜色</th>
          <th>尺码</th>
          <th>建议</th>
          <th>映射</th>
          <th />
        </tr>
      </thead>
      <tbody>
        <For
          each={props.skus}
          fallback={
            <tr>
              <td colSpan={7} class="muted">
                没有 SKU
              </td>
            </tr>
          }
        >
          {(s) => <SkuRow sku={s} act={props.act} buyable={props.collected && s.mapping !== null} />}
        </For>
      </tbody>
    </table>
  );
}

function SkuRow(props: { sku: ShopeeSkuView; act: Act; buyable: boolean }): JSX.Element {
  const [editing, setEditing] = createSignal(false);
  const [color, setColor] = createSignal(props.sku.color ?? '');
  const [size, setSize] = createSignal(props.sku.size ?? '');
  const [advice, setAdvice] = createSignal(props.sku.advice ?? '');
  const fields = { color, setColor, size, setSize, advice, setAdvice };
  const save = (): Promise<void> =>
    props.act(async () => {
      await fixSku(props.sku.sku_id, { color: color(), size: size(), advice: advice() || null });
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
        <SkuEditCells fields={fields} />
      </Show>
      <td>
        {props.sku.mapping ? (
          Object.values(props.sku.mapping.pdd_options).join(' / ')
        ) : (
          <span class="muted">待匹配</span>
        )}
      </td>
      <SkuRowActions
        sku={props.sku}
        editing={editing()}
        canSave={color().trim() !== '' && size().trim() !== ''}
        buyable={props.buyable}
        onEdit={() => setEditing(true)}
        onSave={() => void save()}
        onCancel={() => setEditing(false)}
      />
    </tr>
  );
}

/** A SKU's 颜色, 尺码 and 建议 as inputs, while it is being completed or changed. */
function SkuEditCells(props: { fields: SkuFields }): JSX.Element {
  return (
    <>
      <td>
        <input
          class="input"
          value={props.fields.color()}
          onInput={(e) => props.fields.setColor(e.currentTarget.value)}
          data-testid="sku-color"
        />
      </td>
      <td>
        <input
          class="input"
          value={props.fields.size()}
          onInput={(e) => props.fields.setSize(e.currentTarget.value)}
          data-testid="sku-size"
        />
      </td>
      <td>
        <input
          class="input"
          value={props.fields.advice()}
          onInput={(e) => props.fields.setAdvice(e.currentTarget.value)}
          data-testid="sku-advice"
        />
      </td>
    </>
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
  const [color, setColor] = createSignal('');
  const [size, setSize] = createSignal('');
  const [advice, setAdvice] = createSignal('');
  const valid = (): boolean => /^\d+$/.test(skuId().trim()) && color().trim() !== '' && size().trim() !== '';
  const add = (): Promise<void> =>
    props.act(async () => {
      await addManualSku(props.goodsId, {
        sku_id: skuId().trim(),
        color: color(),
        size: size(),
        advice: advice() || null,
      });
      setSkuId('');
      setColor('');
      setSize('');
      setAdvice('');
    }, '已手工新增 SKU');
  return (
    <div class="inline-form" style={{ 'margin-top': '8px' }} data-testid="sku-add">
      <span class="muted">手工新增 SKU：</span>
      <input
        class="input"
        placeholder="商品规格ID"
        value={skuId()}
        onInput={(e) => setSkuId(e.currentTarget.value)}
        data-testid="sku-add-id"
      />
      <input
        class="input"
        placeholder="颜色"
        value={color()}
        onInput={(e) => setColor(e.currentTarget.value)}
        data-testid="sku-add-color"
      />
      <input
        class="input"
        placeholder="尺码"
        value={size()}
        onInput={(e) => setSize(e.currentTarget.value)}
        data-testid="sku-add-size"
      />
      <input
        class="input"
        placeholder="建议（可空）"
        value={advice()}
        onInput={(e) => setAdvice(e.currentTarget.value)}
      />
      <button type="button" class="btn" disabled={!valid()} onClick={() => void add()} data-testid="sku-add-save">
        新增
      </button>
    </div>
  );
}
