import { createSignal, Match, Show, Switch, type JSX } from 'solid-js';
import { getSybSync, startSybSync, type SybSyncStatus } from '../../api/endpoints';
import { errorText, messageForCode } from '../../errors';
import { createPoll } from '../../lib/poll';
import { formatTime } from '../../lib/time';

/** Polls fast while a sync runs (its progress moves), slowly otherwise (the Schedule may start one). */
const RUNNING_POLL_MS = 1_000;
const IDLE_POLL_MS = 15_000;
/** Ticks to wait for a triggered sync to show up as running before trusting the idle status. */
const START_GRACE_TICKS = 30;

/**
 * The stored error is `CODE: detail` with an English detail for engineers; the operator reads
 * the code's Chinese text, or a plain "failed" when the code is not one the UI knows.
 */
function syncErrorText(stored: string): string {
  const code = /^([A-Z][A-Z0-9_]*):/.exec(stored)?.[1];
  const known = code === undefined ? undefined : messageForCode(code);
  return known ?? '同步失败，请查看管理服务日志';
}

interface Props {
  /** A sync finished (well or not): the list may have new lines. */
  onFinished: () => void;
}

/** 立即同步, with the live progress of the sync and how the last one ended. */
export default function SyncPanel(props: Props): JSX.Element {
  const [status, setStatus] = createSignal<SybSyncStatus | null>(null);
  const [loadError, setLoadError] = createSignal<string | null>(null);
  const [triggerError, setTriggerError] = createSignal<string | null>(null);
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
        props.onFinished();
      }
    } catch (err) {
      setLoadError(errorText(err));
      throw err;
    }
  };

  createPoll(refresh, RUNNING_POLL_MS, { while: () => phase() !== 'idle', immediate: true });
  createPoll(refresh, IDLE_POLL_MS, { while: () => phase() === 'idle' });

  const trigger = async (): Promise<void> => {
    setTriggerError(null);
    before = status();
    graceLeft = START_GRACE_TICKS;
    setPhase('starting');
    try {
      await startSybSync();
      await refresh().catch(() => undefined);
    } catch (err) {
      setPhase('idle');
      setTriggerError(errorText(err));
    }
  };

  const busy = (): boolean => phase() !== 'idle' || status()?.running === true;

  return (
    <div class="or-sync" data-testid="sync-panel" data-running={busy() ? '1' : '0'}>
      <div class="or-sync-row">
        <button
          type="button"
          class="btn btn-primary"
          data-testid="sync-start"
          disabled={busy()}
          onClick={() => void trigger()}
        >
          {busy() ? '同步中…' : '立即同步'}
        </button>
        <span class="muted">从顺运宝拉取订单明细，每 10 分钟也会自动同步</span>
      </div>
      <Switch>
        <Match when={busy()}>
          <p class="or-sync-state" role="status" data-testid="sync-progress">
            正在同步：已读 {status()?.progress.pages ?? 0} 页，{status()?.progress.lines ?? 0} 条明细
          </p>
        </Match>
        <Match when={status()}>
          {(s) => (
            <p class="or-sync-state" data-testid="sync-last">
              上次成功同步：{s().last_synced_at === null ? '尚未同步' : formatTime(s().last_synced_at)}
              <Show when={s().last_error === null && s().last_synced_at !== null}>
                （{s().progress.pages} 页，{s().progress.lines} 条明细）
              </Show>
            </p>
          )}
        </Match>
      </Switch>
      <Show when={!busy() && status()?.last_error}>
        {(e) => (
          <p class="or-sync-error" role="alert" data-testid="sync-error" title={e()}>
            {e().startsWith('SYB_PARTIAL:') ? '上次同步部分完成：' : '上次同步失败：'}
            {syncErrorText(e())}
          </p>
        )}
      </Show>
      <Show when={triggerError() ?? loadError()}>
        {(msg) => (
          <p class="or-sync-error" role="alert" data-testid="sync-trigger-error">
            {msg()}
          </p>
        )}
      </Show>
    </div>
  );
}
