import { For, Show, type JSX } from 'solid-js';
import TaskRow from './TaskRow';
import LiveGateNote from './LiveGateNote';
import { awaitsFence, type TaskListItem } from './types';

interface Props {
  tasks: readonly TaskListItem[];
  isSelected: (taskId: string) => boolean;
  onToggle: (task: TaskListItem, selected: boolean) => void;
  /** the release gate's warning: above the table and on every live task not at 提交订单 yet, when there is one */
  liveWarnings?: ReadonlyArray<{ code: string; message: string }>;
}

export default function TaskTable(props: Props): JSX.Element {
  const gate = (): string | null => props.liveWarnings?.[0]?.message ?? null;
  return (
    <div class="tk-table-wrap">
      <Show when={gate() !== null && props.tasks.some(awaitsFence)}>
        <LiveGateNote warnings={props.liveWarnings ?? []} />
      </Show>
      <table class="tk-table" data-testid="task-table">
        <thead>
          <tr>
            <th class="tk-check" />
            <th>任务号</th>
            <th>商品/标题</th>
            <th>店铺</th>
            <th>规格</th>
            <th class="tk-num">数量</th>
            <th class="tk-num">最高总价</th>
            <th>模式</th>
            <th>状态</th>
            <th>原因</th>
            <th>用时</th>
            <th>更新时间</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.tasks}>
            {(t) => (
              <TaskRow
                task={t}
                selected={props.isSelected(t.task_id)}
                onToggle={(on) => props.onToggle(t, on)}
                liveWarning={gate()}
              />
            )}
          </For>
        </tbody>
      </table>
      <Show when={props.tasks.length === 0}>
        <p class="muted tk-empty" data-testid="task-empty">
          没有符合条件的任务
        </p>
      </Show>
    </div>
  );
}
