import { createSignal, Show, type JSX } from 'solid-js';
import type { CreatePurchaseDraft } from '../../../domain/purchase/schemas';
import { createTask } from '../api/endpoints';
import FieldError from '../components/FieldError';
import ModeRadio from '../components/tasks/ModeRadio';
import { parseYuanToCents } from '../lib/money';
import OptionRows, { type OptionRow } from '../components/tasks/OptionRows';
import '../components/tasks/tasks.css';
import type { ExecutionMode } from '../components/tasks/types';
import { serverFieldErrors, type FieldErrors } from '../components/tasks/validation';
import { errorText } from '../errors';
import { hrefFor, navigate } from '../router';

export default function TaskCreatePage(): JSX.Element {
  let nextKey = 1;
  const newKey = (): number => nextKey++;
  const [url, setUrl] = createSignal('');
  const [rows, setRows] = createSignal<OptionRow[]>([{ key: newKey(), name: '', value: '' }]);
  const [quantity, setQuantity] = createSignal('1');
  const [price, setPrice] = createSignal('');
  // Dry run unless the operator explicitly picks live: a slip must not create a real order.
  const [mode, setMode] = createSignal<ExecutionMode>('dry_run');
  const [errors, setErrors] = createSignal<FieldErrors>({});
  const [formError, setFormError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  /** Client checks catch the obvious; the server stays the judge of everything else. */
  const validate = (): { draft: CreatePurchaseDraft } | { errors: FieldErrors } => {
    const errs: FieldErrors = {};
    if (url().trim() === '') errs.pdd_goods_url = '请粘贴拼多多商品链接';
    const options: Record<string, string> = {};
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
    const q = quantity().trim();
    if (!/^\d+$/.test(q) || Number(q) < 1 || !Number.isSafeInteger(Number(q))) errs.quantity = '数量必须是正整数';
    const cents = parseYuanToCents(price());
    if (!cents.ok) errs.max_total_price_cent = cents.message;
    if (Object.keys(errs).length > 0 || !cents.ok) return { errors: errs };
    return {
      draft: { type: 'purchase', pdd_goods_url: url().trim(), pdd_options: options, quantity: Number(q), max_total_price_cent: cents.cents, execution_mode: mode() },
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
      const created = await createTask(v.draft);
      // Back to the list: drafts are started from there, usually several at once.
      navigate(`/tasks?created=${encodeURIComponent(created.task_id)}`);
    } catch (err) {
      const fields = serverFieldErrors(err);
      if (fields) setErrors(fields);
      else setFormError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="page" data-testid="page-task-new">
      <p>
        <a href={hrefFor('/tasks')} data-testid="back-to-tasks">
          ← 返回采购任务
        </a>
      </p>
      <h1 class="page-title">新建采购任务</h1>
      <p class="page-summary">保存为草稿，不会立即执行；在任务列表中勾选并开始采购后才会交给手机。</p>
      <form class="card tk-form" data-testid="task-form" onSubmit={(e) => void onSubmit(e)} novalidate>
        <label class="field">
          <span class="field-label">PDD 商品链接</span>
          <input
            class="input"
            placeholder="https://mobile.yangkeduo.com/goods.html?goods_id=…"
            data-testid="field-url"
            value={url()}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
          <FieldError field="pdd_goods_url" message={errors().pdd_goods_url} />
        </label>

        <OptionRows rows={rows()} onChange={setRows} newKey={newKey} error={errors().pdd_options ?? null} />

        <div class="tk-form-row">
          <label class="field">
            <span class="field-label">数量</span>
            <input class="input" inputmode="numeric" data-testid="field-quantity" value={quantity()} onInput={(e) => setQuantity(e.currentTarget.value)} />
            <FieldError field="quantity" message={errors().quantity} />
          </label>
          <label class="field">
            <span class="field-label">最高总价（元）</span>
            <input class="input" inputmode="decimal" placeholder="例如 59.90" data-testid="field-max-price" value={price()} onInput={(e) => setPrice(e.currentTarget.value)} />
            <span class="muted tk-hint">含运费与优惠后的实付总价上限；任何一道闸门超过它都会停止，不会提交。</span>
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
          <a class="btn tk-btn-link" href={hrefFor('/tasks')} data-testid="task-form-cancel">
            取消
          </a>
          <button type="submit" class="btn btn-primary" data-testid="task-form-submit" disabled={busy()}>
            {busy() ? '正在保存…' : '保存为草稿'}
          </button>
        </div>
      </form>
    </section>
  );
}
