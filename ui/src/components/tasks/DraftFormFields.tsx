import { Show, type JSX } from 'solid-js';
import { messageForCode } from '../../errors';
import TextField from '../TextField';
import OptionPickers from './OptionPickers';
import OptionRows from './OptionRows';
import type { TaskForm } from './task-form';

/** 拼多多商品链接, and whether the goods it names was ever collected. */
export function GoodsUrlField(props: { form: TaskForm }): JSX.Element {
  const f = (): TaskForm => props.form;
  return (
    <TextField
      label="拼多多商品链接"
      placeholder="https://mobile.yangkeduo.com/goods.html?goods_id=…"
      testid="field-url"
      value={f().fields.url()}
      onValue={f().fields.setUrl}
      field="pdd_goods_url"
      error={f().errors().pdd_goods_url}
    >
      <Show when={f().goodsId() !== null && !f().collected.loading && !f().pickers() && !f().errors().pdd_goods_url}>
        <span class="muted tk-hint" data-testid="not-collected">
          {messageForCode('NOT_COLLECTED')}
        </span>
      </Show>
    </TextField>
  );
}

/** 规格: picked from the collect when there is one, typed otherwise. */
export function OptionsField(props: { form: TaskForm }): JSX.Element {
  const f = (): TaskForm => props.form;
  return (
    <Show
      when={f().pickers()}
      fallback={
        <OptionRows
          rows={f().fields.rows()}
          onChange={f().fields.setRows}
          newKey={f().fields.newKey}
          error={f().errors().pdd_options ?? null}
        />
      }
    >
      {(dims) => (
        <OptionPickers
          collected={dims()}
          value={f().fields.picks()}
          onChange={f().fields.setPicks}
          error={f().errors().pdd_options ?? null}
        />
      )}
    </Show>
  );
}

/** 数量 and 最高总价, with what the cap means and where a pre-filled one came from. */
export function QuantityCapFields(props: { form: TaskForm; prefilled: boolean }): JSX.Element {
  const f = (): TaskForm => props.form;
  return (
    <div class="tk-form-row">
      <TextField
        label="数量"
        inputmode="numeric"
        testid="field-quantity"
        value={f().fields.quantity()}
        onValue={f().fields.setQuantity}
        field="quantity"
        error={f().errors().quantity}
      />
      <TextField
        label="最高总价（元）"
        inputmode="decimal"
        placeholder="例如 59.90"
        testid="field-max-price"
        value={f().fields.maxTotalPriceYuan()}
        onValue={f().fields.setMaxTotalPriceYuan}
        field="max_total_price_cent"
        error={f().errors().max_total_price_cent}
      >
        <span class="muted tk-hint">
          含运费与优惠后的实付总价上限；任何一道闸门超过它都会停止，不会提交。
          <Show when={props.prefilled}> 已按采集单价 × 数量 + 价格容差预填。</Show>
        </span>
        <Show when={f().pickedInferred()}>
          <span class="form-warn tk-hint" data-testid="cap-inferred">
            这个规格的采集单价是推测价格（按颜色采样，没有单独读到），最高总价请先在拼多多核对。
          </span>
        </Show>
      </TextField>
    </div>
  );
}
