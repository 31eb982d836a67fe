import { Show, type JSX } from 'solid-js';
import ErrorMessage from '../ErrorMessage';
import { ListToolbar, LoadMore } from '../ListParts';
import SelectionBar from '../SelectionBar';
import { formatYuan } from '../../lib/money';
import { hrefFor } from '../../router';
import HideBar from './HideBar';
import PayList from './PayList';
import StartConfirmDialog from './StartConfirmDialog';
import StatusTabs from './StatusTabs';
import { createTaskList } from './task-list';
import TaskTable from './TaskTable';
import './tasks.css';

/** 采购任务's list: the view of `createTaskList` (task-list.ts). */
export default function TaskList(): JSX.Element {
  const d = createTaskList();
  const { list } = d;
  return (
    <section class="page" data-testid="page-tasks">
      <TaskListHead total={list.total()} />

      <StatusTabs value={d.filters().status} onChange={(s) => d.setFilter({ status: s })} />

      <ListToolbar
        testid="task"
        class="tk-toolbar"
        searchClass="tk-search"
        placeholder="任务号、标题、商品 ID 或订单号"
        q={d.filters().q}
        onSearch={(q) => d.setFilter({ q })}
        loading={list.loading()}
        onRefresh={() => void list.reload()}
      >
        <label class="tk-toggle">
          <input
            type="checkbox"
            data-testid="task-show-hidden"
            checked={d.filters().hidden}
            onChange={(e) => d.setFilter({ hidden: e.currentTarget.checked })}
          />
          显示已隐藏
        </label>
      </ListToolbar>

      <TaskNotice text={d.notice()} />

      <Show when={d.filters().status === 'WAITING_PAYMENT' && d.filters().q === ''}>
        <PayList />
      </Show>
      <Show when={d.filters().status !== 'WAITING_PAYMENT' || d.filters().q !== ''}>
        <SelectionBar
          testid="selection-bar"
          summary={
            <span data-testid="selection-summary">
              已选 <strong data-testid="selection-count">{d.selected().size}</strong> 个任务，最高总额合计{' '}
              <strong data-testid="selection-sum">{formatYuan(d.maxTotalPriceCentSum())}</strong>
            </span>
          }
          count={d.selected().size}
          action={{ busy: d.start.busy, run: d.start.openDialog }}
          actionLabel="开始采购（只创建待付款订单）"
          actionTestid="start-selected"
          primary
          clearTestid="selection-clear"
          onClear={() => d.setSelected(new Map())}
        />
        <HideBar count={d.toHide().size} hide={d.hide} onClear={() => d.setToHide(new Set<string>())} />

        <ErrorMessage testid="task-load-error" message={list.loadError()} />
        <TaskTable
          tasks={list.items()}
          liveWarnings={d.liveWarnings()}
          isSelected={(id) => d.selected().has(id) || d.toHide().has(id)}
          onToggle={d.toggle}
        />
        <LoadMore
          testid="task-load-more"
          cursor={list.cursor()}
          loading={list.loading()}
          onMore={() => void list.more()}
        />
      </Show>

      <Show when={d.start.open()}>
        <StartConfirmDialog
          count={d.selected().size}
          maxTotalPriceCentSum={d.maxTotalPriceCentSum()}
          liveCount={d.liveCount()}
          dryRunCount={d.selected().size - d.liveCount()}
          liveWarnings={d.liveWarnings()}
          start={d.start}
        />
      </Show>
    </section>
  );
}

/** What the last action did (saved, started), above the list. */
function TaskNotice(props: { text: string | null }): JSX.Element {
  return (
    <Show when={props.text}>
      {(msg) => (
        <p class="tk-notice" role="status" data-testid="task-notice">
          {msg()}
        </p>
      )}
    </Show>
  );
}

/** 采购任务, how many match, and 新建采购任务. */
function TaskListHead(props: { total: number | null }): JSX.Element {
  return (
    <div class="tk-head">
      <div>
        <h1 class="page-title">
          采购任务
          <Show when={props.total !== null}>
            <span class="tk-count" data-testid="task-total">
              共 {props.total} 条
            </span>
          </Show>
        </h1>
        <p class="page-summary">勾选草稿后开始采购；手机只会创建待付款订单，付款由您在拼多多手机应用里完成。</p>
      </div>
      <a class="btn btn-primary tk-btn-link" href={hrefFor('/tasks/new')} data-testid="task-new">
        新建采购任务
      </a>
    </div>
  );
}
