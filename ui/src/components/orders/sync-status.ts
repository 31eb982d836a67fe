import { createSignal } from 'solid-js';
import { getSybSync, startSybSync, type SybSyncStatus } from '../../api/endpoints';
import { errorText } from '../../errors';
import { createAction } from '../../lib/action';
import { createPoll } from '../../lib/poll';

/** Polls fast while a sync runs (its progress moves), slowly otherwise (the Schedule may start one). */
const RUNNING_POLL_MS = 1_000;
const IDLE_POLL_MS = 15_000;
/** Ticks to wait for a triggered sync to show up as running before trusting the idle status. */
const START_GRACE_TICKS = 30;

/**
 * The 顺运宝 sync as the 订单 page follows it: its status polled (fast while it runs), 立即同步,
 * and `onFinished` once a sync it saw running or asked for has ended.
 */
export function createSyncStatus(onFinished: () => void) {
  const [status, setStatus] = createSignal<SybSyncStatus | null>(null);
  const [loadError, setLoadError] = createSignal<string | null>(null);
  // 'starting': asked for, not yet seen running (the workflow takes a moment to begin).
  const [phase, setPhase] = createSignal<'idle' | 'starting' | 'running'>('idle');
  let before: SybSyncStatus | null = null;
  let graceLeft = 0;

  const refresh = async (): Promise<void> => {
    try {
      const s = await getSybSync();
      setLoadError(null);
      setStatus(s);
      const p = phase();
      if (s.running) {
        if (p !== 'running') setPhase('running');
        return;
      }
      const moved =
        before !== null && (s.last_synced_at !== before.last_synced_at || s.last_error !== before.last_error);
      if (p === 'running' || (p === 'starting' && (moved || --graceLeft <= 0))) {
        setPhase('idle');
        onFinished();
      }
    } catch (err) {
      setLoadError(errorText(err));
      throw err;
    }
  };

  createPoll(refresh, RUNNING_POLL_MS, { while: () => phase() !== 'idle', immediate: true });
  createPoll(refresh, IDLE_POLL_MS, { while: () => phase() === 'idle' });

  const trigger = createAction(
    async () => {
      before = status();
      graceLeft = START_GRACE_TICKS;
      setPhase('starting');
      await startSybSync();
      await refresh().catch(() => undefined);
    },
    {
      failure: (_err, text) => {
        setPhase('idle');
        return text;
      },
    },
  );

  const busy = (): boolean => phase() !== 'idle' || status()?.running === true;

  return { status, loadError, triggerError: trigger.error, busy, trigger: trigger.run };
}
