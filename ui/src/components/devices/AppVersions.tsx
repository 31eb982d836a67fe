import { createSignal, For, Show, type JSX } from 'solid-js';
import type { AppVersionView } from '../../../../domain/devices';
import { listAppVersions, releaseAppVersion, withdrawAppVersion } from '../../api/endpoints';
import { errorText } from '../../errors';
import { createAction, toLoadError } from '../../lib/action';
import { createPoll } from '../../lib/poll';
import { formatTime } from '../../lib/time';
import ConfirmDialog from '../ConfirmDialog';
import ErrorMessage from '../ErrorMessage';
import TaughtOverlays from './TaughtOverlays';

const POLL_MS = 10_000;

/** Why 发布 is not offered yet, or null when it may be pressed. */
function releaseBlocked(v: AppVersionView): string | null {
  if (!v.profile) return '设备进程没有这个版本的页面配置，需工程师适配';
  if (!v.last_dry_run_passed_at) return '先用该版本的手机试运行一个任务到提交页';
  return null;
}

/**
 * 拼多多版本: the release gate (admin/devices/app-versions.ts). A live purchase on a version not
 * released here stops before 提交订单; releasing needs a dry run that passed on that version.
 */
export default function AppVersions(): JSX.Element {
  const [versions, setVersions] = createSignal<AppVersionView[] | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [releasing, setReleasing] = createSignal<string | null>(null);
  const [asking, setAsking] = createSignal<Ask | null>(null);

  const load = async (): Promise<void> => {
    try {
      setVersions(await listAppVersions());
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  };
  createPoll(load, POLL_MS, { immediate: true });

  const release = createAction(
    async (kind: 'release' | 'withdraw', version: string) => {
      setReleasing(version);
      await (kind === 'release' ? releaseAppVersion(version) : withdrawAppVersion(version));
      setAsking(null);
      await load();
    },
    { failure: toLoadError(setError) },
  );

  return (
    <section class="dv-versions" data-testid="app-versions">
      <h2 class="tk-section-title">拼多多版本</h2>
      <p class="muted">
        手机上的拼多多版本须先试运行通过、再由操作员发布，才能真实下单；未发布的版本在点击「提交订单」前停止。
      </p>
      <ErrorMessage testid="app-versions-error" message={error()} />
      <Show when={versions()} fallback={<p class="muted">正在加载…</p>}>
        {(list) => (
          <div class="tk-table-wrap">
            <table class="tk-table" data-testid="app-version-table">
              <VersionHead />
              <tbody>
                <For each={list()}>
                  {(v) => (
                    <AppVersionRow
                      version={v}
                      busy={release.busy() && releasing() === v.app_version}
                      onRelease={(version) => setAsking({ kind: 'release', version })}
                      onWithdraw={(version) => setAsking({ kind: 'withdraw', version })}
                    />
                  )}
                </For>
              </tbody>
            </table>
            <Show when={list().length === 0}>
              <p class="muted tk-empty" data-testid="app-version-empty">
                还没有手机报告拼多多版本。
              </p>
            </Show>
          </div>
        )}
      </Show>
      <Show when={asking()}>
        {(a) => (
          <VersionDialog
            ask={a()}
            busy={release.busy()}
            onConfirm={() => void release.run(a().kind, a().version.app_version)}
            onClose={() => setAsking(null)}
          />
        )}
      </Show>
      {/* keyed by the version string, so a poll's fresh list keeps each block (and an open dialog) */}
      <div class="ov-versions">
        <For each={versions()?.map((v) => v.app_version) ?? []}>
          {(version) => <TaughtOverlays version={version} />}
        </For>
      </div>
    </section>
  );
}

const VersionHead = (): JSX.Element => (
  <thead>
    <tr>
      <th>版本</th>
      <th>页面配置</th>
      <th>最近试运行通过</th>
      <th>状态</th>
      <th>操作</th>
    </tr>
  </thead>
);

type Ask = { kind: 'release' | 'withdraw'; version: AppVersionView };

/** 发布 names the dry run it rests on; 撤回发布 says what stops again. */
function VersionDialog(props: { ask: Ask; busy: boolean; onConfirm: () => void; onClose: () => void }): JSX.Element {
  const release = (): boolean => props.ask.kind === 'release';
  const v = (): string => props.ask.version.app_version;
  return (
    <ConfirmDialog
      title={release() ? `发布拼多多 ${v()}？` : `撤回拼多多 ${v()} 的发布？`}
      message={release() ? releaseText(props.ask.version) : WITHDRAW_TEXT}
      confirmLabel={release() ? '确认发布' : '确认撤回'}
      testid={release() ? 'app-version-release-dialog' : 'app-version-withdraw-dialog'}
      busy={props.busy}
      danger={!release()}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    />
  );
}

/** What a release rests on: the dry run that reached the final panel on this version. */
function releaseText(v: AppVersionView): string {
  const run = v.last_dry_run_task_id ? `试运行任务 ${v.last_dry_run_task_id}` : '一次试运行';
  return `依据：${run} 于 ${formatTime(v.last_dry_run_passed_at)} 在这个版本的手机上到达最终提交面板（未点击提交）。发布后，这个版本的手机可以真实下单；可随时撤回。`;
}

const WITHDRAW_TEXT = '撤回后，这个版本的手机上的真实下单会在点击「提交订单」前停止，直到再次发布；试运行不受影响。';

/** A version: its profile, its last passing dry run, 已发布 or 发布 (or why not yet). */
function AppVersionRow(props: {
  version: AppVersionView;
  busy: boolean;
  onRelease: (version: AppVersionView) => void;
  onWithdraw: (version: AppVersionView) => void;
}): JSX.Element {
  const v = (): AppVersionView => props.version;
  return (
    <tr
      data-testid="app-version-row"
      data-app-version={v().app_version}
      data-released={v().released ? 'true' : 'false'}
    >
      <td class="tk-mono">{v().app_version}</td>
      <td>{v().profile ? '有' : '无'}</td>
      <td class="tk-time">{v().last_dry_run_passed_at ? formatTime(v().last_dry_run_passed_at) : '—'}</td>
      <td>
        <span class={`tk-badge ${v().released ? 'tk-tone-ok' : 'tk-tone-attention'}`}>
          {v().released ? `已发布 · ${formatTime(v().released_at)}` : '未发布'}
        </span>
      </td>
      <td>
        <Show when={!v().released}>
          <button
            type="button"
            class="btn btn-primary"
            data-testid="app-version-release"
            disabled={releaseBlocked(v()) !== null || props.busy}
            title={releaseBlocked(v()) ?? '发布后，该版本的手机可以真实下单'}
            onClick={() => props.onRelease(v())}
          >
            发布
          </button>
          <Show when={releaseBlocked(v())}>
            {(why) => (
              <div class="tk-reason" data-testid="app-version-release-blocked">
                {why()}
              </div>
            )}
          </Show>
        </Show>
        <Show when={v().released}>
          <button
            type="button"
            class="btn"
            data-testid="app-version-withdraw"
            disabled={props.busy}
            title="撤回后，该版本的手机不能再真实下单"
            onClick={() => props.onWithdraw(v())}
          >
            撤回发布
          </button>
        </Show>
      </td>
    </tr>
  );
}
