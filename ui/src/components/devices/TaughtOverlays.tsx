import { createSignal, For, Show, type JSX } from 'solid-js';
import { listTaughtOverlays, retireOverlay, reviewOverlay, type TaughtOverlay } from '../../api/endpoints';
import { errorText } from '../../errors';
import { createAction, toLoadError } from '../../lib/action';
import { createPoll } from '../../lib/poll';
import { formatTime } from '../../lib/time';
import ConfirmDialog from '../ConfirmDialog';
import ErrorMessage from '../ErrorMessage';
import { closeTapZh, matcherZh } from '../screen/overlay-entry';
import '../screen/overlays.css';
import TeachOverlayDialog from '../screen/TeachOverlayDialog';
import RawDetail from '../tasks/RawDetail';

/** Often enough that another operator's 审核启用 or 停用 shows while this page is open. */
const POLL_MS = 15_000;

/**
 * The popups people taught the phones of one PDD version: 待审核 until an operator checks and
 * enables one (审核启用), 已启用 from then on, when every phone of that version closes it by
 * itself; 停用 takes it away from the phones.
 */
export default function TaughtOverlays(props: { version: string }): JSX.Element {
  const [overlays, setOverlays] = createSignal<TaughtOverlay[] | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [teaching, setTeaching] = createSignal(false);
  const [retiring, setRetiring] = createSignal<TaughtOverlay | null>(null);

  const load = async (): Promise<void> => {
    try {
      setOverlays((await listTaughtOverlays(props.version)).overlays);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  };
  createPoll(load, POLL_MS, { immediate: true });

  const review = createAction(
    async (o: TaughtOverlay) => {
      await reviewOverlay(props.version, o.id);
      await load();
    },
    { failure: toLoadError(setError) },
  );
  const retire = createAction(
    async (o: TaughtOverlay) => {
      await retireOverlay(props.version, o.id);
      setRetiring(null);
      await load();
    },
    { failure: toLoadError(setError) },
  );

  return (
    <div class="ov-version" data-testid="taught-overlays" data-app-version={props.version}>
      <div class="ov-version-head">
        <h3>拼多多 {props.version} 教过的弹窗</h3>
        <button type="button" class="btn" data-testid="overlay-teach-open" onClick={() => setTeaching(true)}>
          教弹窗
        </button>
      </div>
      <ErrorMessage testid="taught-overlays-error" message={error()} />
      <Show when={overlays()} fallback={<p class="muted">正在加载…</p>}>
        {(list) => (
          <OverlayTable
            overlays={list()}
            busy={review.busy() || retire.busy()}
            onReview={(o) => void review.run(o)}
            onRetire={(o) => setRetiring(o)}
          />
        )}
      </Show>
      <Show when={teaching()}>
        <TeachOverlayDialog
          version={props.version}
          onTaught={() => {
            setTeaching(false);
            void load();
          }}
          onClose={() => setTeaching(false)}
        />
      </Show>
      <Show when={retiring()}>
        {(o) => (
          <ConfirmDialog
            title="停用这个弹窗"
            message={`停用后，手机遇到这个弹窗不再自己点「${closeTapZh(o().entry.close)}」，而是停下等人处理。`}
            confirmLabel="停用"
            testid="overlay-retire-dialog"
            danger
            busy={retire.busy()}
            onConfirm={() => void retire.run(o())}
            onClose={() => setRetiring(null)}
          />
        )}
      </Show>
    </div>
  );
}

/** The version's taught popups, or that there is none yet. */
function OverlayTable(props: {
  overlays: TaughtOverlay[];
  busy: boolean;
  onReview: (o: TaughtOverlay) => void;
  onRetire: (o: TaughtOverlay) => void;
}): JSX.Element {
  return (
    <Show
      when={props.overlays.length > 0}
      fallback={
        <p class="muted" data-testid="taught-overlays-empty">
          还没有教过弹窗。手机停在未识别的弹窗时，可以在它的屏幕页教它怎么关闭。
        </p>
      }
    >
      <div class="tk-table-wrap">
        <table class="tk-table">
          <thead>
            <tr>
              <th>状态</th>
              <th>弹窗上的文字</th>
              <th>关闭它的按钮</th>
              <th>教的人</th>
              <th>审核的人</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.overlays}>
              {(o) => (
                <OverlayRow
                  overlay={o}
                  busy={props.busy}
                  onReview={() => props.onReview(o)}
                  onRetire={() => props.onRetire(o)}
                />
              )}
            </For>
          </tbody>
        </table>
      </div>
    </Show>
  );
}

/** One taught popup: what it shows, what closes it, who taught and who enabled it. */
function OverlayRow(props: {
  overlay: TaughtOverlay;
  busy: boolean;
  onReview: () => void;
  onRetire: () => void;
}): JSX.Element {
  const o = (): TaughtOverlay => props.overlay;
  const enabled = (): boolean => o().reviewed_at !== null;
  return (
    <tr
      class="ov-row"
      data-testid="taught-overlay"
      data-overlay-id={String(o().id)}
      data-overlay-name={o().name}
      data-state={enabled() ? 'enabled' : 'pending'}
    >
      <td>
        <span class={`tk-badge ${enabled() ? 'tk-tone-ok' : 'tk-tone-attention'}`} data-testid="taught-overlay-state">
          {enabled() ? '已启用' : '待审核'}
        </span>
      </td>
      <td>
        <For each={o().entry.signature}>{(m) => <div>{matcherZh(m)}</div>}</For>
        <RawDetail detail={`${o().name} ${JSON.stringify(o().entry)}`} testId="taught-overlay-raw" />
      </td>
      <td data-testid="taught-overlay-close">{matcherZh(o().entry.close)}</td>
      <td>
        {o().taught_by}
        <div class="tk-time">{formatTime(o().taught_at)}</div>
      </td>
      <td data-testid="taught-overlay-reviewer">
        <Show when={enabled()} fallback="—">
          {o().reviewed_by}
          <div class="tk-time">{formatTime(o().reviewed_at)}</div>
        </Show>
      </td>
      <td>
        <div class="ov-buttons">
          <Show when={!enabled()}>
            <button
              type="button"
              class="btn btn-primary"
              data-testid="overlay-review"
              disabled={props.busy}
              title={`审核启用后，手机遇到这个弹窗会自己点「${closeTapZh(o().entry.close)}」关闭`}
              onClick={() => props.onReview()}
            >
              审核启用
            </button>
          </Show>
          <button
            type="button"
            class="btn"
            data-testid="overlay-retire"
            disabled={props.busy}
            onClick={() => props.onRetire()}
          >
            停用
          </button>
        </div>
      </td>
    </tr>
  );
}
