import { createSignal } from 'solid-js';
import type { AttentionItem } from '../../../../domain/attention';
import { getAttention } from '../../api/endpoints';
import { errorText } from '../../errors';
import { hrefFor } from '../../router';

/** As often as 设备 reads its phones. */
export const ATTENTION_POLL_MS = 10_000;
/** 需处理 itself, while it is on screen: a phone that stops shows within seconds. */
export const ATTENTION_PAGE_POLL_MS = 5_000;

// One copy for the whole app: the navigation polls it on every page, 需处理 shows the same list.
const [items, setItems] = createSignal<AttentionItem[] | null>(null);
const [error, setError] = createSignal<string | null>(null);
const [loadedAt, setLoadedAt] = createSignal<string | null>(null);

export { error as attentionError, items as attentionItems, loadedAt as attentionLoadedAt };

/** What this browser lets the page do: no API (an old or locked-down browser), not asked yet, allowed, refused. */
type NotifyState = 'unsupported' | NotificationPermission;
const readPermission = (): NotifyState =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
const [notifyState, setNotifyState] = createSignal<NotifyState>(readPermission());
export { notifyState };

/** 开启通知: the browser asks the operator; never asked on its own (a prompt on load is refused by habit). */
export async function enableNotifications(): Promise<void> {
  if (typeof Notification === 'undefined') return;
  setNotifyState(await Notification.requestPermission());
}

const keyOf = (i: AttentionItem): string => `${i.kind}:${i.id}`;
// the entries of the last good read; null before the first, whose entries are not news
let known: Set<string> | null = null;

/** One browser notification per entry that was not there at the last read, once the operator allowed them. */
function notifyNew(list: AttentionItem[]): void {
  const before = known;
  known = new Set(list.map(keyOf));
  if (before === null || readPermission() !== 'granted') return;
  for (const item of list) {
    if (before.has(keyOf(item))) continue;
    const what = item.kind === 'device' ? '手机' : '任务';
    const n = new Notification(`需处理：${what}「${item.title ?? '未命名'}」`, {
      body: item.reason_zh,
      tag: keyOf(item),
    });
    n.onclick = () => {
      window.focus();
      window.location.hash = hrefFor('/attention');
      n.close();
    };
  }
}

/** Reads the queue; a failed read keeps the last good list on screen and says why. */
export async function loadAttention(): Promise<void> {
  try {
    const list = (await getAttention()).items;
    setItems(list);
    setLoadedAt(new Date().toISOString());
    setError(null);
    notifyNew(list);
  } catch (err) {
    setError(errorText(err));
  }
}
