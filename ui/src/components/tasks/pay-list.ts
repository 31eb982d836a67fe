import { createMemo, createSignal, type Accessor, type Setter } from 'solid-js';
import { listTasks, markTasksPaid, recheckPayment, type MarkPaidResult } from '../../api/endpoints';
import { createAction } from '../../lib/action';
import { sumCents } from '../../lib/money';
import { createPoll } from '../../lib/poll';
import { errorText } from '../../errors';
import type { TaskListItem } from './types';

/** The most a page of the pay list shows; the admin answers up to this many at once. */
export const PAY_LIST_LIMIT = 200;
const PAY_POLL_MS = 5_000;

/** The orders one phone has waiting for payment: what a person pays on it, added up. */
export interface PhoneGroup {
  key: string;
  deviceName: string;
  pddAccount: string | null;
  tasks: TaskListItem[];
  /** the confirmed totals added up (an order with none is left out and counted in `unknown`) */
  sumCent: number;
  unknown: number;
}

/** Grouped by phone, phones by name; within a phone the oldest order first (paid first, in the app's order). */
function groupByPhone(items: readonly TaskListItem[]): PhoneGroup[] {
  const groups = new Map<string, PhoneGroup>();
  for (const t of items) {
    const key = t.device_id ?? '';
    let g = groups.get(key);
    if (!g) {
      g = {
        key,
        deviceName: t.device_name ?? '（未知手机）',
        pddAccount: t.pdd_account,
        tasks: [],
        sumCent: 0,
        unknown: 0,
      };
      groups.set(key, g);
    }
    g.tasks.push(t);
  }
  for (const g of groups.values()) {
    g.tasks.sort((a, b) => (a.updated_at < b.updated_at ? -1 : a.updated_at > b.updated_at ? 1 : 0));
    const known = g.tasks.map((t) => t.confirmed_total_cent).filter((c): c is number => c !== null);
    g.sumCent = sumCents(known);
    g.unknown = g.tasks.length - known.length;
  }
  return [...groups.values()].sort((a, b) => a.deviceName.localeCompare(b.deviceName, 'zh-CN'));
}

/**
 * 待付款's pay list: the orders waiting for payment grouped by phone, the ones picked (at the
 * version shown) for 标记已付款, and the tasks already marked paid whose look at the phone is
 * pending or did not confirm.
 */
export function createPayList() {
  const [waiting, setWaiting] = createSignal<readonly TaskListItem[]>([]);
  const [checks, setChecks] = createSignal<readonly TaskListItem[]>([]);
  const [more, setMore] = createSignal(false);
  const [loadError, setLoadError] = createSignal<string | null>(null);
  const [picked, setPicked] = createSignal<ReadonlyMap<string, TaskListItem>>(new Map());
  const [confirming, setConfirming] = createSignal(false);
  const [refusals, setRefusals] = createSignal<Extract<MarkPaidResult, { result: 'refused' }>[]>([]);

  const load = async (): Promise<void> => {
    try {
      const [w, c] = await Promise.all([
        listTasks({ status: 'WAITING_PAYMENT', limit: PAY_LIST_LIMIT }),
        listTasks({ status: 'SUCCEEDED', paymentCheck: 'open', limit: PAY_LIST_LIMIT }),
      ]);
      setWaiting(w.items);
      setMore(w.next_cursor !== null);
      setChecks(c.items);
      setLoadError(null);
      // a pick is kept only while the task still waits, at the version shown now
      const now = new Map(w.items.map((t) => [t.task_id, t]));
      setPicked(new Map([...picked().keys()].flatMap((id) => (now.has(id) ? [[id, now.get(id)!] as const] : []))));
    } catch (err) {
      setLoadError(errorText(err));
    }
  };
  createPoll(load, PAY_POLL_MS, { immediate: true });

  const groups = createMemo(() => groupByPhone(waiting()));
  const { pickedSum, toggle, toggleGroup } = picking(picked, setPicked);

  const markPaid = createAction(
    async () => {
      const items = [...picked().values()].map((t) => ({ task_id: t.task_id, version: t.version }));
      const answer = await markTasksPaid(items);
      const refused = answer.tasks.filter(
        (r): r is Extract<MarkPaidResult, { result: 'refused' }> => r.result === 'refused',
      );
      setRefusals(refused);
      setPicked(new Map());
      setConfirming(false);
      await load();
      return { applied: answer.tasks.length - refused.length, refused: refused.length };
    },
    {
      success: (r) =>
        r.refused === 0
          ? `已标记 ${r.applied} 笔为已付款；手机空闲时会只读核对待付款列表`
          : `已标记 ${r.applied} 笔，${r.refused} 笔未标记（见下方原因）`,
    },
  );
  const recheck = createAction(
    async (taskId: string) => {
      await recheckPayment(taskId);
      await load();
    },
    { success: '已请求重新核对：手机空闲时只读查看待付款列表' },
  );

  return {
    groups,
    checks,
    more,
    loadError,
    picked,
    pickedSum,
    toggle,
    toggleGroup,
    confirming,
    setConfirming,
    refusals,
    markPaid,
    recheck,
  };
}

export type PayList = ReturnType<typeof createPayList>;

/** The picks' sum and the two ways to pick: one order, or all of a phone's (again: none of them). */
function picking(
  picked: Accessor<ReadonlyMap<string, TaskListItem>>,
  setPicked: Setter<ReadonlyMap<string, TaskListItem>>,
) {
  return {
    pickedSum: (): number =>
      sumCents([...picked().values()].map((t) => t.confirmed_total_cent).filter((c): c is number => c !== null)),
    toggle: (t: TaskListItem): void => {
      const next = new Map(picked());
      if (next.has(t.task_id)) next.delete(t.task_id);
      else next.set(t.task_id, t);
      setPicked(next);
    },
    toggleGroup: (g: PhoneGroup): void => {
      const next = new Map(picked());
      const all = g.tasks.every((t) => next.has(t.task_id));
      for (const t of g.tasks) {
        if (all) next.delete(t.task_id);
        else next.set(t.task_id, t);
      }
      setPicked(next);
    },
  };
}
