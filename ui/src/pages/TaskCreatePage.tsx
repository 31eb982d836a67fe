import { createResource, createSignal, onMount, Show, type JSX } from 'solid-js';
import type { CreatePurchaseDraft } from '../../../domain/purchase/schemas';
import { parsePddGoodsId } from '../../../domain/pdd-url';
import { ApiError } from '../api/client';
import { createTask, editTask, getKnownPurchase, getPddProduct, getTask } from '../api/endpoints';
import FieldError from '../components/FieldError';
import ModeRadio from '../components/tasks/ModeRadio';
import OptionPickers, { type CollectedOptions } from '../components/tasks/OptionPickers';
import { parseYuanToCents } from '../lib/money';
import OptionRows, { type OptionRow } from '../components/tasks/OptionRows';
import '../components/tasks/tasks.css';
import type { ExecutionMode } from '../components/tasks/types';
import { serverFieldErrors, type FieldErrors } from '../components/tasks/validation';
import { API_ERROR_CODES } from '../../../domain/api-errors';
import { errorText, messageForCode } from '../errors';
import { hrefFor, navigate } from '../router';

interface Props {
  /** 编辑: this draft instead of a new one */
  taskId?: string;
  /** 采购 on a product's SKU: start from what the admin knows for it */
  skuId?: string;
}

/** The collected dimensions of a goods, or null when it was never collected (free text then). */
async function collectedOf(goodsId: string): Promise<CollectedOptions | null> {
  try {
    const goods = await getPddProduct(goodsId);
    return goods.dimensions.length > 0 && goods.skus.length > 0
      ? { dimensions: goods.dimensions, skus: goods.skus }
      : null;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export default function TaskCreatePage(props: Props): JSX.Element {
  let nextKey = 1;
  const newKey = (): number => nextKey++;
  const editing = props.taskId !== undefined;
  const [url, setUrl] = createSignal('');
  const [rows, setRows] = createSignal<OptionRow[]>([{ key: newKey(), name: '', value: '' }]);
  const [picks, setPicks] = createSignal<Record<string, string>>({});
  const [quantity, setQuantity] = createSignal('1');
  const [price, setPrice] = createSignal('');
  // Dry run unless the operator explicitly picks live: a slip must not create a real order.
  const [mode, setMode] = createSignal<ExecutionMode>('dry_run');
  const [version, setVersion] = createSignal<number | null>(null);
  const [errors, setErrors] = createSignal<FieldErrors>({});
  const [formError, setFormError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [loaded, setLoaded] = createSignal(!editing && props.skuId === undefined);

  const goodsId = (): string | null => {
    const parsed = parsePddGoodsId(url());
    return parsed.ok ? parsed.goodsId : null;
  };
  // With collected data the options are picked from it; without, typed as the panel shows them.
  const [collected] = createResource(goodsId, collectedOf);
  const pickers = (): CollectedOptions | null => collected() ?? null;

  // A cap taken from a 推测价格 is a guess: the form says so beside the cap (domain/collect.ts).
  const pickedInferred = (): boolean => {
    const dims = pickers();
    const sku = dims?.skus.find((s) => dims.dimensions.every((d) => s.options[d.key] === picks()[d.name]));
    return sku?.price_inferred ?? false;
  };

  const fill = (f: {
    pdd_goods_url: string;
    pdd_options: Record<string, string>;
    quantity: number;
    max_total_price_cent: number;
    execution_mode?: string;
  }): void => {
    setUrl(f.pdd_goods_url);
    setPicks({ ...f.pdd_options });
    const entries = Object.entries(f.pdd_options);
    setRows(
      entries.length > 0
        ? entries.map(([name, value]) => ({ key: newKey(), name, value }))
        : [{ key: newKey(), name: '', value: '' }],
    );
    setQuantity(String(f.quantity));
    setPrice((f.max_total_price_cent / 100).toFixed(2));
    if (f.execution_mode === 'live' || f.execution_mode === 'dry_run') setMode(f.execution_mode);
  };

  onMount(() => {
    const source =
      props.taskId !== undefined
        ? getTask(props.taskId)
        : props.skuId !== undefined
          ? getKnownPurchase(props.skuId)
          : null;
    if (!source) return;
    void source
      .then((f) => {
        if ('status' in f) {
          if (f.status !== 'DRAFT') setFormError(`只有草稿可以编辑（当前状态：${f.status_zh}）`);
          setVersion(f.version);
        }
        fill(f);
      })
      .catch((err: unknown) => setFormError(errorText(err)))
      .finally(() => setLoaded(true));
  });

  /** Client checks catch the obvious; the server stays the judge of everything else. */
  const validate = (): { draft: CreatePurchaseDraft } | { errors: FieldErrors } => {
    const errs: FieldErrors = {};
    if (url().trim() === '') errs.pdd_goods_url = '请粘贴拼多多商品链接';
    const options: Record<string, string> = {};
    const dims = pickers();
    // A purchase is made from collected goods only: its options and price are known, not typed.
    if (goodsId() !== null && !collected.loading && !dims) errs.pdd_goods_url = messageForCode('NOT_COLLECTED');
    if (dims) {
      const missing = dims.dimensions.filter((d) => (picks()[d.name] ?? '') === '').map((d) => d.name);
      if (missing.length > 0) errs.pdd_options = `请选择${missing.join('、')}`;
      for (const d of dims.dimensions) if (picks()[d.name]) options[d.name] = picks()[d.name]!;
      const sku = dims.skus.find((s) => dims.dimensions.every((d) => s.options[d.key] === picks()[d.name]));
      // (stock is the server's to judge, with the option's name: admin/purchase/options.ts)
      if (missing.length === 0 && sku?.available && sku.price_cent === null)
        errs.pdd_options = API_ERROR_CODES.PRICE_UNKNOWN;
    } else {
      for (const r of rows()) {
        const name = r.name.trim();
        const value = r.value.trim();
        if (name === '' || value === '') {
          errs.pdd_options = '请为每个规格填写规格名和规格值，或删除空行';
          break;
        }
        if (name in options) {
          errs.pdd_options = `规格名「${name}」重复`;
          break;
        }
        options[name] = value;
      }
    }
    const q = quantity().trim();
    if (!/^\d+$/.test(q) || Number(q) < 1 || !Number.isSafeInteger(Number(q))) errs.quantity = '数量必须是正整数';
    const cents = parseYuanToCents(price());
    if (!cents.ok) errs.max_total_price_cent = cents.message;
    if (Object.keys(errs).length > 0 || !cents.ok) return { errors: errs };
    return {
      draft: {
        type: 'purchase',
        pdd_goods_url: url().trim(),
        pdd_options: options,
        quantity: Number(q),
        max_total_price_cent: cents.cents,
        execution_mode: mode(),
      },
    };
  };

  const onSubmit = async (e: SubmitEvent): Promise<void> => {
    e.preventDefault();
    if (busy()) return;
    setFormError(null);
    const v = validate();
    if ('errors' in v) {
      setErrors(v.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      if (props.taskId !== undefined) {
        const { type: _type, ...fields } = v.draft;
        const saved = await editTask(props.taskId, { ...fields, version: version() ?? 0 });
        navigate(`/tasks/${encodeURIComponent(saved.task_id)}`);
      } else {
        const created = await createTask(v.draft);
        // Back to the list: drafts are started from there, usually several at once.
        const warned = created.warnings.length > 0 ? `&warnings=${created.warnings.length}` : '';
        navigate(`/tasks?created=${encodeURIComponent(created.task_id)}${warned}`);
      }
    } catch (err) {
      const fields = serverFieldErrors(err);
      if (fields) setErrors(fields);
      else setFormError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const back = (): string => (props.taskId !== undefined ? `/tasks/${encodeURIComponent(props.taskId)}` : '/tasks');

  return (
    <section class="page" data-testid={editing ? 'page-task-edit' : 'page-task-new'}>
      <p>
        <a href={hrefFor(back())} data-testid="back-to-tasks">
          {editing ? '← 返回任务' : '← 返回采购任务'}
        </a>
      </p>
      <h1 class="page-title">{editing ? `编辑草稿 ${props.taskId ?? ''}` : '新建采购任务'}</h1>
      <p class="page-summary">
        {editing
          ? '保存后任务成为新版本；按旧版本发出的开始采购会被拒绝。'
          : '保存为草稿，不会立即执行；在任务列表中勾选并开始采购后才会交给手机。'}
      </p>
      <Show when={loaded()} fallback={<p class="muted">正在加载…</p>}>
        <form
          class="card tk-form"
          data-testid="task-form"
          data-ready={collected.loading ? 'loading' : 'ready'}
          onSubmit={(e) => void onSubmit(e)}
          novalidate
        >
          <label class="field">
            <span class="field-label">拼多多商品链接</span>
            <input
              class="input"
              placeholder="https://mobile.yangkeduo.com/goods.html?goods_id=…"
              data-testid="field-url"
              value={url()}
              onInput={(e) => setUrl(e.currentTarget.value)}
            />
            <FieldError field="pdd_goods_url" message={errors().pdd_goods_url} />
            <Show when={goodsId() !== null && !collected.loading && !pickers() && !errors().pdd_goods_url}>
              <span class="muted tk-hint" data-testid="not-collected">
                {messageForCode('NOT_COLLECTED')}
              </span>
            </Show>
          </label>

          <Show
            when={pickers()}
            fallback={
              <OptionRows rows={rows()} onChange={setRows} newKey={newKey} error={errors().pdd_options ?? null} />
            }
          >
            {(dims) => (
              <OptionPickers
                collected={dims()}
                value={picks()}
                onChange={setPicks}
                error={errors().pdd_options ?? null}
              />
            )}
          </Show>

          <div class="tk-form-row">
            <label class="field">
              <span class="field-label">数量</span>
              <input
                class="input"
                inputmode="numeric"
                data-testid="field-quantity"
                value={quantity()}
                onInput={(e) => setQuantity(e.currentTarget.value)}
              />
              <FieldError field="quantity" message={errors().quantity} />
            </label>
            <label class="field">
              <span class="field-label">最高总价（元）</span>
              <input
                class="input"
                inputmode="decimal"
                placeholder="例如 59.90"
                data-testid="field-max-price"
                value={price()}
                onInput={(e) => setPrice(e.currentTarget.value)}
              />
              <span class="muted tk-hint">
                含运费与优惠后的实付总价上限；任何一道闸门超过它都会停止，不会提交。
                <Show when={props.skuId !== undefined && !editing}> 已按采集单价 × 数量 + 价格容差预填。</Show>
              </span>
              <Show when={pickedInferred()}>
                <span class="form-warn tk-hint" data-testid="cap-inferred">
                  这个规格的采集单价是推测价格（按颜色采样，没有单独读到），最高总价请先在拼多多核对。
                </span>
              </Show>
              <FieldError field="max_total_price_cent" message={errors().max_total_price_cent} />
            </label>
          </div>

          <ModeRadio value={mode()} onChange={setMode} />
          <FieldError field="execution_mode" message={errors().execution_mode} />

          <Show when={formError()}>
            {(msg) => (
              <p class="form-error" role="alert" data-testid="task-form-error">
                {msg()}
              </p>
            )}
          </Show>
          <div class="tk-form-actions">
            <a class="btn tk-btn-link" href={hrefFor(back())} data-testid="task-form-cancel">
              取消
            </a>
            <button type="submit" class="btn btn-primary" data-testid="task-form-submit" disabled={busy()}>
              {busy() ? '正在保存…' : editing ? '保存修改' : '保存为草稿'}
            </button>
          </div>
        </form>
      </Show>
    </section>
  );
}
