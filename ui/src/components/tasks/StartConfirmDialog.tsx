import { For, Show, type JSX } from 'solid-js';
import { formatYuan } from '../../lib/money';
import Modal from '../Modal';
import type { StartRefusal } from './types';

interface Props {
  count: number;
  capSumCents: number;
  liveCount: number;
  dryRunCount: number;
  busy: boolean;
  error: string | null;
  refusals: readonly StartRefusal[];
  onConfirm: () => void;
  onClose: () => void;
}

export default function StartConfirmDialog(props: Props): JSX.Element {
  return (
    <Modal
      title="确认开始采购"
      testid="start-dialog"
      onClose={() => props.onClose()}
      footer={
        <>
          <button type="button" class="btn" data-testid="start-cancel" onClick={() => props.onClose()}>
            返回
          </button>
          <button
            type="button"
            class="btn btn-primary"
            data-testid="start-confirm"
            disabled={props.busy}
            onClick={() => props.onConfirm()}
          >
            {props.busy ? '正在开始…' : '确认开始'}
          </button>
        </>
      }
    >
      <p data-testid="start-dialog-summary">
        将开始 <strong>{props.count}</strong> 个任务，最高总额合计 <strong>{formatYuan(props.capSumCents)}</strong>。
      </p>
      <p>
        其中真实下单 <strong data-testid="start-live-count">{props.liveCount}</strong> 个，试运行{' '}
        <strong data-testid="start-dry-count">{props.dryRunCount}</strong> 个。
      </p>
      <Show when={props.liveCount > 0}>
        <p class="tk-warn">
          真实下单的任务会在拼多多创建待付款订单（不会付款）。每个任务只授权一次，实付总价不超过各自的最高总价。
        </p>
      </Show>
      <p class="muted">只创建待付款订单，付款需要您在拼多多手机应用中完成。</p>
      <Show when={props.error}>
        {(msg) => (
          <div class="form-error" role="alert" data-testid="start-error">
            <p>{msg()}</p>
            <Show when={props.refusals.length > 0}>
              <ul class="tk-refusals">
                <For each={props.refusals}>
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
    </Modal>
  );
}
