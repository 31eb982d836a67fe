import { batch, createSignal } from 'solid-js';
import { ApiError, query } from '../../api/client';
import { hideTasks, listTasks } from '../../api/endpoints';
import type { DraftWarning } from '../../../../domain/purchase/views';
import { sumCents } from '../../lib/money';
import { createPagedList } from '../../lib/paged-list';
import { createAction } from '../../lib/action';
import { navigate } from '../../router';
import { routeQuery } from '../../route-table';
import { createStart } from './start';
import { isPurchaseStatus, isTerminal, STATUS_TONE, taskRefusals, type TaskListItem } from './types';

const PAGE_SIZE = 50;
const LIST_POLL_MS = 3_000;
/** The list polls only while a task is on its way (a phone may change it any second). */
const moving = (t: TaskListItem): boolean => isPurchaseStatus(t.status) && STATUS_TONE[t.status] === 'active';

export interface TaskFilters {
  status: string;
  q: string;
  hidden: boolean;
}

/** Filters live in the hash, so a reload or a trip through login lands on the same view. */
function taskFilters(): TaskFilters {
  const p = routeQuery();
  return { status: p.get('status') ?? '', q: p.get('q') ?? '', hidden: p.get('hidden') === '1' };
}

/** What the task form sent the operator here with (`?created=&warnings=&pick=1`). */
function arrival(): { created: string; warnings: number; pick: boolean } {
  const p = routeQuery();
  return {
    created: p.get('created') ?? '',
    warnings: Number(p.get('warnings') ?? '0') || 0,
    pick: p.get('pick') === '1',
  };
}

/**
 * The data behind 采购任务's list: the paged rows, the drafts picked to start (at the version
 * shown), the finished tasks picked to hide, and the two all-or-nothing actions on them.
 */
export function createTaskList() {
  const filters = taskFilters;
  const { created, warnings, pick } = arrival();
  const [selected, setSelected] = createSignal<ReadonlyMap<string, TaskListItem>>(new Map());
  const [toHide, setToHide] = createSignal<ReadonlySet<string>>(new Set());
  // the release gate before a live purchase: every answer says it, the newest one counts
  const [liveWarnings, setLiveWarnings] = createSignal<DraftWarning[]>([]);
  // The form sends the operator here after saving, so say what was saved.
  const [notice, setNotice] = createSignal<string | null>(
    created === ''
      ? null
      : `已保存草稿 ${created}${warnings > 0 ? ` （有 ${warnings} 条草稿提示：请打开任务查看后再开始采购）` : ''}`,
  );
  // 复制为真实下单 sends the copy here to be started: it is picked on the first page that shows it.
  let pickCreated = created !== '' && pick;

  const list = createPagedList({
    filters,
    pageSize: PAGE_SIZE,
    fetch: async (f: TaskFilters, limit, cursor) => {
      const page = await listTasks({ status: f.status, q: f.q, includeHidden: f.hidden, limit, cursor });
      setLiveWarnings(page.live_warnings ?? []);
      return page;
    },
    poll: { ms: LIST_POLL_MS, while: (items) => items.some(moving) },
    // A fresh first page is the truth: keep only picks that are still drafts, at their current
    // version, so a start never carries a stale version or a task that moved on.
    onFirstPage: (page) => {
      const picks = (t: TaskListItem): boolean => selected().has(t.task_id) || (pickCreated && t.task_id === created);
      const fresh = new Map(page.items.filter((t) => t.status === 'DRAFT' && picks(t)).map((t) => [t.task_id, t]));
      if (pickCreated && fresh.has(created)) pickCreated = false;
      setSelected(fresh);
      const hideable = (t: TaskListItem): boolean =>
        toHide().has(t.task_id) && isTerminal(t.status) && t.removed_at === null && t.pdd_order_no === null;
      setToHide(new Set(page.items.filter(hideable).map((t) => t.task_id)));
    },
  });

  const setFilter = (next: Partial<TaskFilters>): void => {
    const f = { ...filters(), ...next };
    navigate(`/tasks${query({ status: f.status, q: f.q, hidden: f.hidden ? '1' : undefined })}`);
  };

  const toggle = (task: TaskListItem, on: boolean): void => {
    if (task.status !== 'DRAFT') {
      const next = new Set(toHide());
      if (on) next.add(task.task_id);
      else next.delete(task.task_id);
      setToHide(next);
      return;
    }
    const next = new Map(selected());
    if (on) next.set(task.task_id, task);
    else next.delete(task.task_id);
    setSelected(next);
  };

  const picked = (): TaskListItem[] => [...selected().values()];
  return {
    list,
    filters,
    setFilter,
    notice,
    selected,
    setSelected,
    toHide,
    setToHide,
    toggle,
    picked,
    liveWarnings,
    maxTotalPriceCentSum: (): number => sumCents(picked().map((t) => t.max_total_price_cent ?? 0)),
    liveCount: (): number => picked().filter((t) => t.execution_mode === 'live').length,
    hide: createHide(list.reload, toHide, setToHide, setNotice),
    start: createStart({
      tasks: () => picked().map((t) => ({ task_id: t.task_id, version: t.version })),
      refusedText: '没有任何任务被开始，请处理以下任务后重试：',
      onStarted: async (count) => {
        batch(() => {
          setSelected(new Map());
          setNotice(`已开始 ${count} 个任务，等待手机领取`);
        });
        await list.reload();
      },
      reload: list.reload,
    }),
  };
}

/** 隐藏所选: all or nothing; a refusal names each task still in progress. */
function createHide(
  reload: () => Promise<void>,
  toHide: () => ReadonlySet<string>,
  setToHide: (s: ReadonlySet<string>) => void,
  setNotice: (n: string) => void,
) {
  return createAction(
    async () => {
      const ids = [...toHide()];
      await hideTasks(ids);
      batch(() => {
        setToHide(new Set<string>());
        setNotice(`已隐藏 ${ids.length} 个已结束的任务；勾选「显示已隐藏」可以再看到它们`);
      });
      await reload();
    },
    {
      failure: async (err, text) => {
        const list = err instanceof ApiError ? taskRefusals(err.details) : [];
        await reload();
        return list.length > 0
          ? `没有任何任务被隐藏：${list.map((r) => `${r.task_id} ${r.message}`).join('；')}`
          : text;
      },
    },
  );
}
