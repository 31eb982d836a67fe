import { createSignal, For, Show, type JSX } from 'solid-js';
import { refusalLink, type DraftMarginFigures, type OrderDraftResult } from '../../api/endpoints';
import { messageForCode } from '../../errors';
import { createAction, type Action } from '../../lib/action';
import { formatYuan } from '../../lib/money';
import { hrefFor } from '../../router';
import ActionButton from '../ActionButton';
import ConfirmDialog from '../ConfirmDialog';
import ErrorMessage from '../ErrorMessage';
import ModeRadio from '../tasks/ModeRadio';
import type { ExecutionMode } from '../tasks/types';

interface BarProps {
  count: number;
  mode: ExecutionMode;
  /** 生成采购草稿 of the picked lines */
  draft: Action<[], unknown>;
  onMode: (mode: ExecutionMode) => void;
  onClear: () => void;
}

/** The selected lines → one purchase draft each, dry run unless the operator picks live. */
export function DraftBar(props: BarProps): JSX.Element {
  return (
    <div class="or-draftbar" data-testid="draft-bar">
      <ModeRadio value={props.mode} onChange={(m) => props.onMode(m)} />
      <div class="or-draftbar-actions">
        <span>
          已选 <strong data-testid="order-selection-count">{props.count}</strong> 条订单明细
        </span>
        <div class="or-sku">
          <button
            type="button"
            class="btn btn-ghost"
            data-testid="order-selection-clear"
            disabled={props.count === 0}
            onClick={() => props.onClear()}
          >
            清除选择
          </button>
          <ActionButton
            action={props.draft}
            class="btn btn-primary"
            testid="draft-create"
            busyLabel="正在生成…"
            disabled={props.count === 0}
          >
            生成采购草稿
          </ActionButton>
        </div>
        <ErrorMessage class="or-sku-error" testid="draft-error" message={props.draft.error()} />
      </div>
    </div>
  );
}

interface ResultProps {
  results: readonly OrderDraftResult[];
  /** The order number of each line, for the operator; the id when the line is not on screen. */
  sybOrderNo: (sybId: string) => string;
  onClose: () => void;
  /** 仍然生成: drafts one line refused MARGIN_TOO_LOW, the operator having confirmed its figures */
  draftAnyway: (sybId: string) => Promise<void>;
}

/** The server's own Chinese when it carries the line's numbers or problem (数量 11 超过上限 10), else the code's text. */
function refusalText(error: { code: string; message: string }): string {
  return /[\u4e00-\u9fff]/u.test(error.message) ? error.message : (messageForCode(error.code) ?? error.message);
}

/** What became of each line of the last batch: its draft, or the refusal in words. */
export function DraftResults(props: ResultProps): JSX.Element {
  const made = (): number => props.results.filter((r) => r.task_id !== null).length;
  return (
    <div class="or-results" data-testid="draft-results">
      <div class="or-sync-row">
        <strong>
          已生成 {made()} 个采购草稿，{props.results.length - made()} 条未生成
        </strong>
        <Show when={made() > 0}>
          <a href={hrefFor('/tasks?status=DRAFT')} data-testid="draft-results-tasks">
            去采购任务开始采购
          </a>
        </Show>
        <button type="button" class="btn btn-ghost" data-testid="draft-results-close" onClick={() => props.onClose()}>
          关闭
        </button>
      </div>
      <ul>
        <For each={props.results}>
          {(r) => (
            <li data-testid="draft-result" data-syb-id={r.syb_id} data-code={r.error?.code ?? ''}>
              <span class="tk-mono">{props.sybOrderNo(r.syb_id)}</span>（明细 {r.syb_id}）：
              <Show
                when={r.task_id}
                fallback={
                  <>
                    <span class="or-refused" data-testid="draft-result-refusal">
                      未生成，{r.error ? refusalText(r.error) : '原因未知'}
                    </span>
                    <Show when={r.error?.code === 'MARGIN_TOO_LOW'}>
                      <LowMargin
                        figures={r.error?.margin ?? null}
                        sybOrderNo={props.sybOrderNo(r.syb_id)}
                        draft={() => props.draftAnyway(r.syb_id)}
                      />
                    </Show>
                    <Show when={refusalLink(r)}>
                      {(link) => (
                        <>
                          {' '}
                          <a href={hrefFor(link().href)} data-testid="draft-result-link">
                            {link().label}
                          </a>
                        </>
                      )}
                    </Show>
                  </>
                }
              >
                {(taskId) => (
                  <>
                    已生成草稿{' '}
                    <a
                      class="tk-mono"
                      href={hrefFor(`/tasks/${encodeURIComponent(taskId())}`)}
                      data-testid="draft-result-task"
                    >
                      {taskId()}
                    </a>
                  </>
                )}
              </Show>
            </li>
          )}
        </For>
      </ul>
    </div>
  );
}

const percent = (bp: number | null): string => (bp === null ? '—' : `${(bp / 100).toFixed(2)}%`);

/**
 * A line the minimum margin held back: its figures, and 仍然生成 behind a confirm that names them.
 * Only this one line is drafted, never the batch: taking a loss is decided line by line.
 */
function LowMargin(props: {
  figures: DraftMarginFigures | null;
  sybOrderNo: string;
  draft: () => Promise<void>;
}): JSX.Element {
  const [asking, setAsking] = createSignal(false);
  const action = createAction(async () => {
    await props.draft();
    setAsking(false);
  });
  const figuresText = (): string => {
    const f = props.figures;
    return f
      ? `售价 ${formatYuan(f.sale_cny_cent)}，费用 ${formatYuan(f.fees_cny_cent)}，成本（最高总价） ${formatYuan(f.cost_cny_cent)}，` +
          `毛利 ${formatYuan(f.margin_cny_cent)}（${percent(f.margin_bp)}，最低 ${percent(f.min_margin_bp)}）`
      : '毛利无法估算';
  };
  return (
    <>
      <Show when={props.figures}>
        <span
          class="or-margin"
          data-testid="draft-result-margin"
          classList={{ 'or-refused': (props.figures?.margin_cny_cent ?? 0) < 0 }}
        >
          {' '}
          {figuresText()}
        </span>
      </Show>{' '}
      <button type="button" class="btn btn-ghost" data-testid="draft-low-margin" onClick={() => setAsking(true)}>
        仍然生成
      </button>
      <ErrorMessage testid="draft-low-margin-error" message={action.error()} />
      <Show when={asking()}>
        <ConfirmDialog
          title="低于最低毛利率，仍然生成草稿？"
          message={`订单 ${props.sybOrderNo}：${figuresText()}。生成后仍需在「采购任务」开始采购才会下单；这次确认会记入操作记录。`}
          confirmLabel="仍然生成草稿"
          testid="low-margin-confirm"
          busy={action.busy()}
          danger
          onConfirm={() => void action.run()}
          onClose={() => setAsking(false)}
        />
      </Show>
    </>
  );
}
