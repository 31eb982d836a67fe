import { Match, Show, Switch, type JSX } from 'solid-js';
import { messageForCode } from '../../errors';
import { formatTime } from '../../lib/time';
import ErrorMessage from '../ErrorMessage';
import { createSyncStatus } from './sync-status';

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
  const { status, loadError, triggerError, busy, trigger } = createSyncStatus(() => props.onFinished());

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
            {syncEndWords(e())}
            {syncErrorText(e())}
          </p>
        )}
      </Show>
      <ErrorMessage class="or-sync-error" testid="sync-trigger-error" message={triggerError() ?? loadError()} />
    </div>
  );
}

/** A sync that stored what it read and left the rest to the next one did not fail. */
function syncEndWords(lastError: string): string {
  if (lastError.startsWith('SYB_PARTIAL:') || lastError.startsWith('SYB_SYNC_BUDGET:')) return '上次同步部分完成：';
  if (lastError.startsWith('SYB_SYNC_CANCELLED:')) return '上次同步已停止：';
  return '上次同步失败：';
}
