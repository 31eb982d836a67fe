import { createSignal, For, Show, type JSX } from 'solid-js';
import type { RestoreNotice } from '../../../../domain/ui-config';
import { getUiConfig } from '../../api/endpoints';
import { formatTime } from '../../lib/time';

// Asked once per page load: the notice only changes when the admin starts again.
const [notice, setNotice] = createSignal<RestoreNotice | null>(null);
let asked: Promise<void> | undefined;

function ask(): void {
  asked ??= getUiConfig().then(
    (c) => {
      setNotice(c.restore_notice ?? null);
    },
    () => {
      asked = undefined; // try again on the next visit
    },
  );
}

// per tab, like the session's token: a new tab shows the restore once more
const DISMISSED_KEY = 'cmautobuy.restore-notice-dismissed';
const [dismissed, setDismissed] = createSignal(sessionStorage.getItem(DISMISSED_KEY));

/**
 * The admin database was restored from a backup lately (`GET /api/config` `restore_notice`):
 * how many tasks the start caught up with Temporal, and the drafts made after the backup that
 * are gone, so the operator creates them again. Until 知道了 in this tab.
 */
export default function RestoreBanner(): JSX.Element {
  ask();
  const shown = (): RestoreNotice | null => {
    const n = notice();
    return n && dismissed() !== String(n.id) ? n : null;
  };
  const dismiss = (id: number): void => {
    sessionStorage.setItem(DISMISSED_KEY, String(id));
    setDismissed(String(id));
  };
  return (
    <Show when={shown()} keyed>
      {(n) => (
        <div class="tk-warn" role="status" data-testid="restore-notice">
          <p>
            数据库已于 {formatTime(n.at)} 从备份恢复：
            <span data-testid="restore-caught-up">{n.caught_up + n.recreated}</span> 个任务已按 Temporal 补齐
            <Show when={n.recreated > 0}>（其中 {n.recreated} 个在备份之后创建，已重建）</Show>。
          </p>
          <LostDrafts notice={n} />
          <Show when={n.unmatched_workflows > 0}>
            <p data-testid="restore-unmatched">
              另有 {n.unmatched_workflows} 个采购工作流未能补回任务，请查看管理端日志，在 Temporal 中核对。
            </p>
          </Show>
          <button type="button" class="btn btn-ghost" data-testid="restore-dismiss" onClick={() => dismiss(n.id)}>
            知道了
          </button>
        </div>
      )}
    </Show>
  );
}

function LostDrafts(props: { notice: RestoreNotice }): JSX.Element {
  const n = props.notice;
  return (
    <Show
      when={n.lost_drafts}
      fallback={
        <p data-testid="restore-lost-unknown">
          被替换的数据库文件已不在，无法列出丢失的草稿：备份之后创建、未启动的草稿已丢失，请核对后重新创建。恢复的数据库缺少{' '}
          {n.recreated + n.unmatched_workflows} 个采购工作流的任务。
        </p>
      }
    >
      {(lost) => (
        <Show when={lost().length > 0} fallback={<p>备份之后没有草稿丢失。</p>}>
          <p>以下草稿在备份之后创建、未启动，已丢失，请重新创建：</p>
          <ul data-testid="restore-lost-drafts">
            <For each={lost()}>
              {(t) => (
                <li data-testid="restore-lost-draft">
                  <code>{t.task_id}</code>
                  <Show when={t.title}>{(title) => <span class="muted"> {title()}</span>}</Show>
                </li>
              )}
            </For>
          </ul>
        </Show>
      )}
    </Show>
  );
}
