import { For, Show, type JSX } from 'solid-js';
import { formatYuan } from '../../lib/money';
import FormDialog from '../FormDialog';
import { hrefFor } from '../../router';
import type { Start } from './start';

interface Props {
  count: number;
  /** the picked tasks' 最高总价 added up */
  maxTotalPriceCentSum: number;
  liveCount: number;
  dryRunCount: number;
  /** the release gate's warning before a live purchase (APP_VERSION_NOT_RELEASED); empty: none */
  liveWarnings: ReadonlyArray<{ code: string; message: string }>;
  start: Start;
}

export default function StartConfirmDialog(props: Props): JSX.Element {
  return (
    <FormDialog
      title="确认开始采购"
      testid="start-dialog"
      onClose={props.start.close}
      submitLabel="确认开始"
      busyLabel="正在开始…"
      submitTestid="start-confirm"
      backTestid="start-cancel"
      busy={props.start.busy()}
      onSubmit={() => void props.start.run()}
    >
      <p data-testid="start-dialog-summary">
        将开始 <strong>{props.count}</strong> 个任务，最高总额合计{' '}
        <strong>{formatYuan(props.maxTotalPriceCentSum)}</strong>。
      </p>
      <p>
        其中真实下单 <strong data-testid="start-live-count">{props.liveCount}</strong> 个，试运行{' '}
        <strong data-testid="start-dry-count">{props.dryRunCount}</strong> 个。
      </p>
      <Show when={props.liveCount > 0}>
        <p class="tk-warn">
          真实下单的任务会在拼多多创建待付款订单（不会付款）。每个任务只授权一次，实付总价不超过各自的最高总价。
        </p>
        <For each={props.liveWarnings}>
          {(w) => (
            <p class="form-error" role="alert" data-testid="start-live-warning" data-code={w.code}>
              {w.message} <a href={hrefFor('/devices')}>前往「设备 → 拼多多版本」</a>
            </p>
          )}
        </For>
      </Show>
      <p class="muted">只创建待付款订单，付款需要您在拼多多手机应用中完成。</p>
      <Show when={props.start.error()}>
        {(msg) => (
          <div class="form-error" role="alert" data-testid="start-error">
            <p>{msg()}</p>
            <Show when={props.start.refusals().length > 0}>
              <ul class="tk-refusals">
                <For each={props.start.refusals()}>
                  {(r) => (
                    <li data-testid="start-refusal" data-task-id={r.task_id} data-code={r.code}>
                      {r.task_id}：{r.message || r.code}
                    </li>
                  )}
                </For>
              </ul>
            </Show>
          </div>
        )}
      </Show>
    </FormDialog>
  );
}
