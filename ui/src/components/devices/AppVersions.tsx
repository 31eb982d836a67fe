import { createSignal, For, Show, type JSX } from 'solid-js';
import type { AppVersionView } from '../../../../domain/devices';
import { listAppVersions, releaseAppVersion } from '../../api/endpoints';
import { errorText } from '../../errors';
import { createAction, toLoadError } from '../../lib/action';
import { createPoll } from '../../lib/poll';
import { formatTime } from '../../lib/time';
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
    async (version: string) => {
      setReleasing(version);
      await releaseAppVersion(version);
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
              <thead>
                <tr>
                  <th>版本</th>
                  <th>页面配置</th>
                  <th>最近试运行通过</th>
                  <th>状态</th>
                  <th>操作</th>
                </tr>
              </thead>
              <tbody>
                <For each={list()}>
                  {(v) => (
                    <AppVersionRow
                      version={v}
                      busy={release.busy() && releasing() === v.app_version}
                      onRelease={(version) => void release.run(version)}
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
      {/* keyed by the version string, so a poll's fresh list keeps each block (and an open dialog) */}
      <div class="ov-versions">
        <For each={versions()?.map((v) => v.app_version) ?? []}>
          {(version) => <TaughtOverlays version={version} />}
        </For>
      </div>
    </section>
  );
}

/** A version: its profile, its last passing dry run, 已发布 or 发布 (or why not yet). */
function AppVersionRow(props: {
  version: AppVersionView;
  busy: boolean;
  onRelease: (version: string) => void;
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
            onClick={() => props.onRelease(v().app_version)}
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
      </td>
    </tr>
  );
}
