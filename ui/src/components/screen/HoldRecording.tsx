import { createEffect, createResource, createSignal, For, onCleanup, Show, type JSX } from 'solid-js';
import type { HoldRecording as Hold } from '../../../../domain/hold-recording';
import { evidenceImageUrl, getHoldRecordings } from '../../api/endpoints';
import { errorText } from '../../errors';
import ErrorMessage from '../ErrorMessage';
import { formatTime } from '../../lib/time';
import './hold-recording.css';

/** Frames shown either side of the current one in the strip: enough to see where a hold goes, few images to load. */
const STRIP_SIDE = 4;

/**
 * 人工操作录像: every hold of the phone, newest first, and a player of the one picked — its
 * frames one a second as the worker recorded them. Payment screens were never recorded, so a
 * hold may have gaps, or no frame at all.
 */
export default function HoldRecording(props: { deviceId: string }): JSX.Element {
  const [holds, { refetch }] = createResource(() => props.deviceId, getHoldRecordings);
  const [picked, setPicked] = createSignal<string | null>(null);
  const list = (): Hold[] => holds()?.holds ?? [];
  const current = (): Hold | null => list().find((h) => h.since === picked()) ?? list()[0] ?? null;
  return (
    <div class="card hr-panel" data-testid="hold-recording">
      <div class="hr-head">
        <h2 class="sc-panel-title">人工操作录像</h2>
        <button type="button" class="btn" data-testid="hold-recording-refresh" onClick={() => void refetch()}>
          刷新
        </button>
      </div>
      <p class="muted">每秒一帧，支付页面不录</p>
      <ErrorMessage
        testid="hold-recording-error"
        message={holds.error ? errorText(holds.error) : null}
        prefix="录像读取失败："
      />
      <Show when={!holds.loading || holds()} fallback={<p class="muted">正在读取…</p>}>
        <Show when={list().length > 0} fallback={<p data-testid="hold-recording-empty">这台手机还没有被接管过。</p>}>
          <ul class="hr-holds" data-testid="hold-recording-holds">
            <For each={list()}>
              {(h) => (
                <li>
                  <button
                    type="button"
                    class="hr-hold"
                    classList={{ 'hr-hold-picked': current()?.since === h.since }}
                    data-testid="hold-recording-hold"
                    data-since={h.since}
                    onClick={() => setPicked(h.since)}
                  >
                    {h.held_by} 接管 {formatTime(h.since)} 至 {h.until ? formatTime(h.until) : '现在（进行中）'}
                    <span class="muted">（{h.frames.length} 帧）</span>
                  </button>
                </li>
              )}
            </For>
          </ul>
          <Show when={current()} keyed>
            {(h) => <Player hold={h} />}
          </Show>
        </Show>
      </Show>
    </div>
  );
}

/** One hold's frames: the picture, 上一帧 / 播放 / 下一帧, a slider and a strip of the frames around it. */
function Player(props: { hold: Hold }): JSX.Element {
  const frames = (): Hold['frames'] => props.hold.frames;
  const [at, setAt] = createSignal(0);
  const [playing, setPlaying] = createSignal(false);
  const last = (): number => Math.max(0, frames().length - 1);
  const go = (i: number): number => setAt(Math.min(last(), Math.max(0, i)));
  createEffect(() => {
    if (!playing()) return;
    // as recorded: one frame a second
    const timer = setInterval(() => {
      if (at() >= last()) setPlaying(false);
      else go(at() + 1);
    }, 1_000);
    onCleanup(() => clearInterval(timer));
  });
  const toggle = (): void => {
    if (!playing() && at() >= last()) setAt(0);
    setPlaying(!playing());
  };
  const strip = (): number[] => {
    const from = Math.max(0, at() - STRIP_SIDE);
    const to = Math.min(last(), at() + STRIP_SIDE);
    return Array.from({ length: to - from + 1 }, (_, k) => from + k);
  };
  return (
    <Show
      when={frames().length > 0}
      fallback={<p data-testid="hold-recording-no-frames">这次接管没有录到画面（可能一直停在支付页面）。</p>}
    >
      <div class="hr-player" data-testid="hold-recording-player">
        <Show when={frames()[at()]}>
          {(f) => (
            <>
              <img
                class="hr-frame"
                src={evidenceImageUrl(f().evidence_id)}
                alt={`画面 ${formatTime(f().captured_at)}`}
              />
              <p class="muted" data-testid="hold-recording-time">
                {formatTime(f().captured_at)}（第 {at() + 1} / {frames().length} 帧）
              </p>
            </>
          )}
        </Show>
        <PlayButtons at={at()} last={last()} playing={playing()} go={go} toggle={toggle} />
        <input
          type="range"
          class="hr-slider"
          min={0}
          max={last()}
          value={at()}
          aria-label="播放位置"
          onInput={(e) => go(Number(e.currentTarget.value))}
        />
        <div class="hr-strip" data-testid="hold-recording-strip">
          <For each={strip()}>
            {(i) => (
              <button
                type="button"
                class="hr-thumb"
                classList={{ 'hr-thumb-at': i === at() }}
                title={formatTime(frames()[i]?.captured_at)}
                onClick={() => go(i)}
              >
                <img src={evidenceImageUrl(frames()[i]?.evidence_id ?? '')} alt="" loading="lazy" />
              </button>
            )}
          </For>
        </div>
      </div>
    </Show>
  );
}

/** 上一帧 / 播放 / 下一帧. */
function PlayButtons(props: {
  at: number;
  last: number;
  playing: boolean;
  go: (i: number) => void;
  toggle: () => void;
}): JSX.Element {
  return (
    <div class="sc-buttons">
      <button type="button" class="btn" disabled={props.at === 0} onClick={() => props.go(props.at - 1)}>
        上一帧
      </button>
      <button type="button" class="btn btn-primary" data-testid="hold-recording-play" onClick={() => props.toggle()}>
        {props.playing ? '暂停' : '播放'}
      </button>
      <button type="button" class="btn" disabled={props.at >= props.last} onClick={() => props.go(props.at + 1)}>
        下一帧
      </button>
    </div>
  );
}
