import { batch, createEffect, createSignal, Match, on, Show, Switch, type JSX } from 'solid-js';
import { ApiError, query } from '../api/client';
import { hideTasks, listTasks, startTasks } from '../api/endpoints';
import SelectionBar from '../components/SelectionBar';
import StartConfirmDialog from '../components/tasks/StartConfirmDialog';
import StatusTabs from '../components/tasks/StatusTabs';
import TaskTable from '../components/tasks/TaskTable';
import '../components/tasks/tasks.css';
import {
  isPurchaseStatus,
  isTerminal,
  STATUS_TONE,
  startRefusals,
  taskRefusals,
  type StartRefusal,
  type TaskListItem,
} from '../components/tasks/types';
import { errorText } from '../errors';
import { sumCents } from '../lib/money';
import { createPoll } from '../lib/poll';
import { currentPath, currentRoute, hrefFor, navigate } from '../router';
import TaskCreatePage from './TaskCreatePage';
import TaskDetailPage from './TaskDetailPage';

const PAGE_SIZE = 50;

/**
 * `/tasks` is the list, `/tasks/new` the form (`?sku=` pre-fills it from a mapped Shopee SKU),
 * `/tasks/<id>` one task, `/tasks/<id>/edit` its draft's form.
 */
export default function TasksPage(): JSX.Element {
  const detailId = (): string | null => {
    const m = /^\/tasks\/([^/]+)$/.exec(currentPath());
    return m?.[1] !== undefined && m[1] !== 'new' ? decodeURIComponent(m[1]) : null;
  };
  const editId = (): string | null => {
    const m = /^\/tasks\/([^/]+)\/edit$/.exec(currentPath());
    return m?.[1] !== undefined ? decodeURIComponent(m[1]) : null;
  };
  const skuParam = (): string | undefined => {
    const full = currentRoute();
    const i = full.indexOf('?');
    return new URLSearchParams(i === -1 ? '' : full.slice(i + 1)).get('sku') ?? undefined;
  };
  return (
    <Switch fallback={<TaskList />}>
      <Match when={currentPath() === '/tasks/new'}>
        <Show when={skuParam()} keyed fallback={<TaskCreatePage />}>
          {(sku) => <TaskCreatePage skuId={sku} />}
        </Show>
      </Match>
      <Match when={editId()} keyed>
        {(id) => <TaskCreatePage taskId={id} />}
      </Match>
      <Match when={detailId()} keyed>
        {(id) => <TaskDetailPage taskId={id} />}
      </Match>
    </Switch>
  );
}

/** Filters live in the hash, so a reload or a trip through login lands on the same view. */
function routeParams(): {
  status: string;
  q: string;
  created: string;
  pick: boolean;
  warnings: number;
  hidden: boolean;
} {
  const full = currentRoute();
  const i = full.indexOf('?');
  const p = new URLSearchParams(i === -1 ? '' : full.slice(i + 1));
  return {
    status: p.get('status') ?? '',
    q: p.get('q') ?? '',
    created: p.get('created') ?? '',
    pick: p.get('pick') === '1',
    warnings: Number(p.get('warnings') ?? '0') || 0,
    hidden: p.get('hidden') === '1',
  };
}

const LIST_POLL_MS = 3_000;
/** The list polls only while a task is on its way (a phone may change it any second). */
const moving = (t: TaskListItem): boolean => isPurchaseStatus(t.status) && STATUS_TONE[t.status] === 'active';

function TaskList(): JSX.Element {
  const status = (): string => routeParams().status;
  const q = (): string => routeParams().q;
  const showHidden = (): boolean => routeParams().hidden;
  const [total, setTotal] = createSignal<number | null>(null);
  const [toHide, setToHide] = createSignal<ReadonlySet<string>>(new Set());
  const [hiding, setHiding] = createSignal(false);
  const [hideError, setHideError] = createSignal<string | null>(null);
  const [search, setSearch] = createSignal(q());
  const [items, setItems] = createSignal<TaskListItem[]>([]);
  const [cursor, setCursor] = createSignal<string | null>(null);
  const [loading, setLoading] = createSignal(false);
  const [loadError, setLoadError] = createSignal<string | null>(null);
  const [selected, setSelected] = createSignal<ReadonlyMap<string, TaskListItem>>(new Map());
  const [dialogOpen, setDialogOpen] = createSignal(false);
  const [starting, setStarting] = createSignal(false);
  const [startError, setStartError] = createSignal<string | null>(null);
  const [refusals, setRefusals] = createSignal<StartRefusal[]>([]);
  // The form sends the operator here after saving, so say what was saved.
  const created = routeParams().created;
  const warned = routeParams().warnings;
  const [notice, setNotice] = createSignal<string | null>(
    created === ''
      ? null
      : `已保存草稿 ${created}${warned > 0 ? ` （有 ${warned} 条草稿提示：请打开任务查看后再开始采购）` : ''}`,
  );
  // 复制为真实下单 sends the copy here to be started: it is picked on the first page that shows it.
  let pickCreated = created !== '' && routeParams().pick;

  // Each load is numbered; a response to a superseded filter is dropped, not shown.
  let generation = 0;
  const load = async (append: boolean, quiet = false): Promise<void> => {
    const gen = append ? generation : ++generation;
    if (!quiet) setLoading(true);
    setLoadError(null);
    try {
      // A refresh re-reads as many rows as are on screen, so polling never shortens the list.
      const limit = append ? PAGE_SIZE : Math.min(200, Math.max(PAGE_SIZE, items().length));
      const page = await listTasks({
        status: status(),
        q: q(),
        includeHidden: showHidden(),
        limit,
        cursor: append ? cursor() : null,
      });
      if (gen !== generation) return;
      batch(() => {
        setItems((prev) => (append ? [...prev, ...page.items] : page.items));
        setCursor(page.next_cursor);
        setTotal(page.total ?? null);
        // A fresh first page is the truth: keep only picks that are still drafts, at their
        // current version, so a start never carries a stale version or a task that moved on.
        if (!append) {
          const picks = (t: TaskListItem): boolean =>
            selected().has(t.task_id) || (pickCreated && t.task_id === created);
          const fresh = new Map(page.items.filter((t) => t.status === 'DRAFT' && picks(t)).map((t) => [t.task_id, t]));
          if (pickCreated && fresh.has(created)) pickCreated = false;
          setSelected(fresh);
          setToHide(
            new Set(
              page.items
                .filter((t) => toHide().has(t.task_id) && isTerminal(t.status) && t.removed_at === null)
                .map((t) => t.task_id),
            ),
          );
        }
      });
    } catch (err) {
      if (gen === generation) setLoadError(errorText(err));
    } finally {
      if (gen === generation) setLoading(false);
    }
  };

  createEffect(
    on([status, q, showHidden], () => {
      setSearch(q());
      void load(false);
    }),
  );
  createPoll(() => load(false, true), LIST_POLL_MS, { while: () => !loading() && items().some(moving) });

  const setFilter = (next: { status?: string; q?: string; hidden?: boolean }): void => {
    const cur = routeParams();
    const hidden = next.hidden ?? cur.hidden;
    navigate(
      `/tasks${query({ status: next.status ?? cur.status, q: next.q ?? cur.q, hidden: hidden ? '1' : undefined })}`,
    );
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

  const hide = async (): Promise<void> => {
    if (hiding()) return;
    setHiding(true);
    setHideError(null);
    const ids = [...toHide()];
    try {
      await hideTasks(ids);
      batch(() => {
        setToHide(new Set<string>());
        setNotice(`已隐藏 ${ids.length} 个已结束的任务；勾选「显示已隐藏」可以再看到它们`);
      });
      await load(false);
    } catch (err) {
      const list = err instanceof ApiError ? taskRefusals(err.details) : [];
      setHideError(
        list.length > 0
          ? `没有任何任务被隐藏：${list.map((r) => `${r.task_id} ${r.message}`).join('；')}`
          : errorText(err),
      );
      await load(false);
    } finally {
      setHiding(false);
    }
  };
  const picked = (): TaskListItem[] => [...selected().values()];
  const capSum = (): number => sumCents(picked().map((t) => t.max_total_price_cent ?? 0));
  const liveCount = (): number => picked().filter((t) => t.execution_mode === 'live').length;

  const openDialog = (): void => {
    batch(() => {
      setStartError(null);
      setRefusals([]);
      setDialogOpen(true);
    });
  };

  const start = async (): Promise<void> => {
    if (starting()) return;
    setStarting(true);
    setStartError(null);
    setRefusals([]);
    const tasks = picked().map((t) => ({ task_id: t.task_id, version: t.version }));
    try {
      await startTasks(tasks);
      batch(() => {
        setDialogOpen(false);
        setSelected(new Map());
        setNotice(`已开始 ${tasks.length} 个任务，等待手机领取`);
      });
      await load(false);
    } catch (err) {
      const list = err instanceof ApiError ? startRefusals(err.details) : [];
      batch(() => {
        setRefusals(list);
        setStartError(list.length > 0 ? '没有任何任务被开始，请处理以下任务后重试：' : errorText(err));
      });
    } finally {
      setStarting(false);
    }
  };

  return (
    <section class="page" data-testid="page-tasks">
      <div class="tk-head">
        <div>
          <h1 class="page-title">
            采购任务
            <Show when={total() !== null}>
              <span class="tk-count" data-testid="task-total">
                共 {total()} 条
              </span>
            </Show>
          </h1>
          <p class="page-summary">勾选草稿后开始采购；手机只会创建待付款订单，付款由您在拼多多手机应用里完成。</p>
        </div>
        <a class="btn btn-primary tk-btn-link" href={hrefFor('/tasks/new')} data-testid="task-new">
          新建采购任务
        </a>
      </div>

      <StatusTabs value={status()} onChange={(s) => setFilter({ status: s })} />

      <form
        class="tk-toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ q: search().trim() });
        }}
      >
        <input
          class="input tk-search"
          type="search"
          placeholder="任务号、标题、商品 ID 或订单号"
          data-testid="task-search"
          value={search()}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
        <button type="submit" class="btn" data-testid="task-search-submit">
          搜索
        </button>
        <button
          type="button"
          class="btn btn-ghost"
          data-testid="task-refresh"
          disabled={loading()}
          onClick={() => void load(false)}
        >
          刷新
        </button>
        <label class="tk-toggle">
          <input
            type="checkbox"
            data-testid="task-show-hidden"
            checked={showHidden()}
            onChange={(e) => setFilter({ hidden: e.currentTarget.checked })}
          />
          显示已隐藏
        </label>
      </form>

      <Show when={notice()}>
        {(msg) => (
          <p class="tk-notice" role="status" data-testid="task-notice">
            {msg()}
          </p>
        )}
      </Show>

      <SelectionBar
        count={selected().size}
        capSumCents={capSum()}
        busy={starting()}
        onStart={openDialog}
        onClear={() => setSelected(new Map())}
      />

      <Show when={toHide().size > 0 || hideError() !== null}>
        <div class="tk-selbar" data-testid="hide-bar">
          <span>
            已选 <strong data-testid="hide-count">{toHide().size}</strong> 个已结束的任务
          </span>
          <button type="button" class="btn btn-ghost" onClick={() => setToHide(new Set<string>())}>
            清除选择
          </button>
          <button
            type="button"
            class="btn"
            data-testid="hide-selected"
            disabled={toHide().size === 0 || hiding()}
            onClick={() => void hide()}
          >
            隐藏所选
          </button>
          <Show when={hideError()}>
            {(msg) => (
              <p class="form-error" role="alert" data-testid="hide-error">
                {msg()}
              </p>
            )}
          </Show>
        </div>
      </Show>

      <Show when={loadError()}>
        {(msg) => (
          <p class="form-error" role="alert" data-testid="task-load-error">
            {msg()}
          </p>
        )}
      </Show>

      <TaskTable tasks={items()} isSelected={(id) => selected().has(id) || toHide().has(id)} onToggle={toggle} />

      <div class="tk-more">
        <Show when={cursor() !== null}>
          <button
            type="button"
            class="btn"
            data-testid="task-load-more"
            disabled={loading()}
            onClick={() => void load(true)}
          >
            {loading() ? '正在加载…' : '加载更多'}
          </button>
        </Show>
        <Show when={loading() && cursor() === null}>
          <span class="muted">正在加载…</span>
        </Show>
      </div>

      <Show when={dialogOpen()}>
        <StartConfirmDialog
          count={selected().size}
          capSumCents={capSum()}
          liveCount={liveCount()}
          dryRunCount={selected().size - liveCount()}
          busy={starting()}
          error={startError()}
          refusals={refusals()}
          onConfirm={() => void start()}
          onClose={() => {
            setDialogOpen(false);
            // A refused start means some task moved on; show the operator where things stand.
            if (startError() !== null) void load(false);
          }}
        />
      </Show>
    </section>
  );
}
