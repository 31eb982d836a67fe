import { Show, type JSX } from 'solid-js';
import ErrorMessage from '../components/ErrorMessage';
import FieldError from '../components/FieldError';
import { GoodsUrlField, OptionsField, QuantityCapFields } from '../components/tasks/DraftFormFields';
import ModeRadio from '../components/tasks/ModeRadio';
import PriorityField from '../components/tasks/PriorityField';
import { createTaskForm, type TaskFormProps } from '../components/tasks/task-form';
import '../components/tasks/tasks.css';
import { hrefFor } from '../router';

/** 新建采购任务 and 编辑草稿: the view of `createTaskForm` (components/tasks/task-form.ts). */
export default function TaskCreatePage(props: TaskFormProps): JSX.Element {
  const form = createTaskForm(props);
  const { editing, fields } = form;
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
      <Show when={form.loaded()} fallback={<p class="muted">正在加载…</p>}>
        <form
          class="card tk-form"
          data-testid="task-form"
          data-ready={form.collected.loading ? 'loading' : 'ready'}
          onSubmit={(e) => void form.submit(e)}
          novalidate
        >
          <GoodsUrlField form={form} />
          <OptionsField form={form} />
          <QuantityCapFields form={form} prefilled={props.skuId !== undefined && !editing} />

          <ModeRadio value={fields.mode()} onChange={fields.setMode} />
          <FieldError field="execution_mode" message={form.errors().execution_mode} />
          <PriorityField value={fields.priority()} onChange={fields.setPriority} error={form.errors().priority} />

          <ErrorMessage testid="task-form-error" message={form.formError()} />
          <div class="tk-form-actions">
            <a class="btn tk-btn-link" href={hrefFor(back())} data-testid="task-form-cancel">
              取消
            </a>
            <button type="submit" class="btn btn-primary" data-testid="task-form-submit" disabled={form.busy()}>
              {form.busy() ? '正在保存…' : editing ? '保存修改' : '保存为草稿'}
            </button>
          </div>
        </form>
      </Show>
    </section>
  );
}
