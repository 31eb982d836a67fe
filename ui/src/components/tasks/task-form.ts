import { createResource, createSignal, onMount, type Accessor } from 'solid-js';
import { parsePddGoodsId } from '../../../../domain/pdd-url';
import type { CreatePurchaseDraft } from '../../../../domain/purchase/schemas';
import { ApiError } from '../../api/client';
import { createTask, editTask, getKnownPurchase, getPddProduct, getTask } from '../../api/endpoints';
import { errorText } from '../../errors';
import { createAction } from '../../lib/action';
import { navigate } from '../../router';
import { checkDraft } from './draft-check';
import { pickedSku, type CollectedOptions } from './OptionPickers';
import type { OptionRow } from './OptionRows';
import { DEFAULT_PRIORITY } from './priority';
import type { ExecutionMode } from './types';
import { serverFieldErrors, type FieldErrors } from './validation';

export interface TaskFormProps {
  /** 编辑: this draft instead of a new one */
  taskId?: string;
  /** 采购 on a product's SKU: start from what the admin knows for it */
  skuId?: string;
}

/** What a form is filled from: a draft being edited, or what the admin knows for a SKU. */
interface DraftFill {
  pdd_goods_url: string;
  pdd_options: Record<string, string>;
  quantity: number;
  max_total_price_cent: number;
  execution_mode?: string;
  priority?: number;
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

/** The form's fields as the operator types them, and filling them from a saved draft. */
function createDraftFields() {
  let nextKey = 1;
  const newKey = (): number => nextKey++;
  const [url, setUrl] = createSignal('');
  const [rows, setRows] = createSignal<OptionRow[]>([{ key: newKey(), name: '', value: '' }]);
  const [picks, setPicks] = createSignal<Record<string, string>>({});
  const [quantity, setQuantity] = createSignal('1');
  // 最高总价 in yuan, as typed
  const [maxTotalPriceYuan, setMaxTotalPriceYuan] = createSignal('');
  // Dry run unless the operator explicitly picks live: a slip must not create a real order.
  const [mode, setMode] = createSignal<ExecutionMode>('dry_run');
  const [priority, setPriority] = createSignal(DEFAULT_PRIORITY);

  const fill = (f: DraftFill): void => {
    setUrl(f.pdd_goods_url);
    setPicks({ ...f.pdd_options });
    const entries = Object.entries(f.pdd_options);
    setRows(
      entries.length > 0
        ? entries.map(([name, value]) => ({ key: newKey(), name, value }))
        : [{ key: newKey(), name: '', value: '' }],
    );
    setQuantity(String(f.quantity));
    setMaxTotalPriceYuan((f.max_total_price_cent / 100).toFixed(2));
    if (f.execution_mode === 'live' || f.execution_mode === 'dry_run') setMode(f.execution_mode);
    if (f.priority !== undefined) setPriority(f.priority);
  };
  const fields = { url, setUrl, rows, setRows, picks, setPicks, quantity, setQuantity };
  return { ...fields, maxTotalPriceYuan, setMaxTotalPriceYuan, mode, setMode, priority, setPriority, newKey, fill };
}

/** Saves the draft and goes where the operator continues: the task (an edit) or the list. */
async function saveDraft(
  taskId: string | undefined,
  draft: CreatePurchaseDraft,
  version: number | null,
): Promise<void> {
  if (taskId !== undefined) {
    const { type: _type, ...fields } = draft;
    const saved = await editTask(taskId, { ...fields, version: version ?? 0 });
    navigate(`/tasks/${encodeURIComponent(saved.task_id)}`);
    return;
  }
  const created = await createTask(draft);
  // Back to the list: drafts are started from there, usually several at once.
  const warned = created.warnings.length > 0 ? `&warnings=${created.warnings.length}` : '';
  navigate(`/tasks?created=${encodeURIComponent(created.task_id)}${warned}`);
}

/**
 * 新建采购任务 / 编辑草稿: the fields, the collected options of the goods the link names, the
 * draft or SKU the form starts from, and saving.
 */
export function createTaskForm(props: TaskFormProps) {
  const editing = props.taskId !== undefined;
  const fields = createDraftFields();
  const [version, setVersion] = createSignal<number | null>(null);
  const [errors, setErrors] = createSignal<FieldErrors>({});
  const save = createAction(
    async (draft: CreatePurchaseDraft) => {
      await saveDraft(props.taskId, draft, version());
    },
    {
      failure: (err, text) => {
        const refused = serverFieldErrors(err);
        if (!refused) return text;
        setErrors(refused);
        return null;
      },
    },
  );
  const [loaded, setLoaded] = createSignal(!editing && props.skuId === undefined);

  const goodsId = (): string | null => {
    const parsed = parsePddGoodsId(fields.url());
    return parsed.ok ? parsed.goodsId : null;
  };
  // With collected data the options are picked from it; without, typed as the panel shows them.
  const [collected] = createResource(goodsId, collectedOf);
  const pickers: Accessor<CollectedOptions | null> = () => collected() ?? null;
  // A cap taken from a 推测价格 is a guess: the form says so beside the cap (domain/collect.ts).
  const pickedInferred = (): boolean => {
    const dims = pickers();
    return (dims && pickedSku(dims, fields.picks())?.price_inferred) ?? false;
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
          if (f.status !== 'DRAFT') save.setError(`只有草稿可以编辑（当前状态：${f.status_zh}）`);
          setVersion(f.version);
        }
        fields.fill(f);
      })
      .catch((err: unknown) => save.setError(errorText(err)))
      .finally(() => setLoaded(true));
  });

  const submit = (e: SubmitEvent): void => {
    e.preventDefault();
    if (save.busy()) return;
    save.setError(null);
    const f = fields;
    const v = checkDraft({
      url: f.url(),
      goodsId: goodsId(),
      collected: pickers(),
      collectedLoading: collected.loading,
      picks: f.picks(),
      rows: f.rows(),
      quantity: f.quantity(),
      maxTotalPriceYuan: f.maxTotalPriceYuan(),
      mode: f.mode(),
      priority: f.priority(),
    });
    if ('errors' in v) return void setErrors(v.errors);
    setErrors({});
    void save.run(v.draft);
  };

  const { busy, error: formError } = save;
  return { editing, fields, errors, formError, busy, loaded, goodsId, collected, pickers, pickedInferred, submit };
}
export type TaskForm = ReturnType<typeof createTaskForm>;
