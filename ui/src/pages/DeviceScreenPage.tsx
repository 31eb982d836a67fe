import { Show, type JSX } from 'solid-js';
import ErrorMessage from '../components/ErrorMessage';
import { screenPathZh } from '../../../domain/screen-gestures';
import { createPhoneControl } from '../components/screen/phone-control';
import ScreenCanvas from '../components/screen/ScreenCanvas';
import { HoldPanel, KeysPanel, ResumePanel } from '../components/screen/ScreenControls';
import { createScreenStream, type ScreenStream } from '../components/screen/screen-stream';
import HoldRecording from '../components/screen/HoldRecording';
import TeachOverlayPanel from '../components/screen/TeachOverlayPanel';
import '../components/screen/screen.css';
import RawDetail from '../components/tasks/RawDetail';
import '../components/tasks/tasks.css';
import { hrefFor } from '../router';

/**
 * 手机屏幕: a phone's live screen. Anyone may watch; the operator who 接管 it may tap, swipe, press
 * its keys and type, while automation waits; 处理完毕，继续 hands a stopped phone back.
 */
export default function DeviceScreenPage(props: { deviceId: string }): JSX.Element {
  let canvas: HTMLCanvasElement | undefined;
  const stream = createScreenStream(props.deviceId, () => canvas);
  const control = createPhoneControl(props.deviceId);
  const name = (): string => control.device()?.display_name ?? '手机';
  return (
    <section class="page" data-testid="page-device-screen" data-device-id={props.deviceId}>
      <p>
        <a href={hrefFor('/devices')} data-testid="back-to-devices">
          ← 返回设备
        </a>
      </p>
      <div class="tk-head">
        <div>
          <h1 class="page-title" data-testid="screen-title">
            手机屏幕：{name()}
          </h1>
          <p class="page-summary">画面实时刷新。观看不影响自动流程；要在画面上操作，先点「接管」。</p>
        </div>
      </div>
      <ErrorMessage testid="screen-load-error" message={control.loadError()} />
      <Show when={control.loaded() && control.device() === null}>
        <p class="form-error" role="alert" data-testid="screen-no-device">
          没有这台手机（可能已吊销）。
        </p>
      </Show>
      <div class="sc-layout">
        <div class="sc-stage">
          <StreamStatus stream={stream} />
          <ScreenCanvas
            ref={(el) => (canvas = el)}
            phone={stream.meta()}
            active={control.mine()}
            onGesture={(input) => void control.input.run(input)}
          />
        </div>
        <div class="sc-side">
          <ResumePanel control={control} />
          <HoldPanel control={control} />
          <KeysPanel control={control} />
          <TeachOverlayPanel control={control} />
        </div>
      </div>
      <HoldRecording deviceId={props.deviceId} />
    </section>
  );
}

/** 高速画面 · 每秒 N 帧, or why there is no picture; the raw names only under 技术详情. */
function StreamStatus(props: { stream: ScreenStream }): JSX.Element {
  const s = (): ScreenStream => props.stream;
  return (
    <div class="sc-status">
      <Show when={s().error()} fallback={<StreamRate stream={s()} />}>
        {(e) => (
          <p class="form-error" role="alert" data-testid="screen-error">
            {e()}
          </p>
        )}
      </Show>
      <RawDetail
        detail={s().detail() ?? (s().meta() ? `path ${s().meta()?.path}, codec ${s().meta()?.codec}` : null)}
        testId="screen-raw"
      />
    </div>
  );
}

function StreamRate(props: { stream: ScreenStream }): JSX.Element {
  return (
    <p class="muted" data-testid="screen-rate">
      <Show when={props.stream.meta()} fallback="正在连接手机画面…">
        {(m) => (
          <>
            <span data-testid="screen-path" data-path={m().path}>
              {screenPathZh(m().path)}
            </span>
            {' · '}
            <span data-testid="screen-fps">每秒 {props.stream.fps()} 帧</span>
          </>
        )}
      </Show>
    </p>
  );
}
