import { createEffect, createSignal, For, Show, type JSX } from 'solid-js';
import type { AuditQuery } from '../../../../domain/audit-views';
import type { DeviceView } from '../../../../domain/devices';
import { ACTION_GROUPS, actionFilterLabel } from './labels';

/** 审计日志's filters: 操作 (a group or one action), 手机, 任务号. */
export default function AuditFilters(props: {
  value: AuditQuery;
  phones: readonly DeviceView[];
  onChange: (next: Partial<AuditQuery>) => void;
}): JSX.Element {
  const [taskId, setTaskId] = createSignal(props.value.task_id);
  createEffect(() => setTaskId(props.value.task_id));
  const known = (): boolean =>
    props.value.action === '' ||
    ACTION_GROUPS.some((g) => g.prefix === props.value.action || g.actions.some(([c]) => c === props.value.action));
  const phoneKnown = (): boolean =>
    props.value.device_id === '' || props.phones.some((p) => p.device_id === props.value.device_id);
  return (
    <form
      class="cat-toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        props.onChange({ task_id: taskId().trim() });
      }}
    >
      <select
        class="input"
        data-testid="audit-filter-action"
        value={props.value.action}
        onChange={(e) => props.onChange({ action: e.currentTarget.value })}
      >
        <option value="">全部操作</option>
        {/* an action from a link that the list does not name is kept selectable */}
        <Show when={!known()}>
          <option value={props.value.action}>{actionFilterLabel(props.value.action)}</option>
        </Show>
        <For each={ACTION_GROUPS}>
          {(g) => (
            <optgroup label={g.label}>
              <option value={g.prefix}>{actionFilterLabel(g.prefix)}</option>
              <For each={g.actions}>{([code, label]) => <option value={code}>{label}</option>}</For>
            </optgroup>
          )}
        </For>
      </select>
      <select
        class="input"
        data-testid="audit-filter-phone"
        value={props.value.device_id}
        onChange={(e) => props.onChange({ device_id: e.currentTarget.value })}
      >
        <option value="">全部手机</option>
        <Show when={!phoneKnown()}>
          <option value={props.value.device_id}>{props.value.device_id}</option>
        </Show>
        <For each={props.phones}>{(p) => <option value={p.device_id}>{p.display_name}</option>}</For>
      </select>
      <input
        class="input"
        type="search"
        placeholder="任务号"
        data-testid="audit-filter-task"
        value={taskId()}
        onInput={(e) => setTaskId(e.currentTarget.value)}
        onChange={(e) => props.onChange({ task_id: e.currentTarget.value.trim() })}
      />
      <button type="submit" class="btn" data-testid="audit-filter-submit">
        筛选
      </button>
    </form>
  );
}
