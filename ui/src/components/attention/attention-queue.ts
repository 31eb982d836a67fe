import { createSignal } from 'solid-js';
import type { AttentionItem } from '../../../../domain/attention';
import { getAttention } from '../../api/endpoints';
import { errorText } from '../../errors';

/** As often as 设备 reads its phones. */
export const ATTENTION_POLL_MS = 10_000;

// One copy for the whole app: the navigation polls it on every page, 需处理 shows the same list.
const [items, setItems] = createSignal<AttentionItem[] | null>(null);
const [error, setError] = createSignal<string | null>(null);
const [loadedAt, setLoadedAt] = createSignal<string | null>(null);

export { error as attentionError, items as attentionItems, loadedAt as attentionLoadedAt };

/** Reads the queue; a failed read keeps the last good list on screen and says why. */
export async function loadAttention(): Promise<void> {
  try {
    setItems((await getAttention()).items);
    setLoadedAt(new Date().toISOString());
    setError(null);
  } catch (err) {
    setError(errorText(err));
  }
}
