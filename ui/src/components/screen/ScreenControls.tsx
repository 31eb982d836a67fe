import { createSignal, Show, type JSX } from 'solid-js';
import { attentionReasonZh } from '../../../../domain/devices';
import ActionButton from '../ActionButton';
import ErrorMessage from '../ErrorMessage';
import RawDetail from '../tasks/RawDetail';
import { formatTime } from '../../lib/time';
import type { PhoneControl } from './phone-control';

/** 接管 / 释放, who holds the phone, and when an idle hold ends by itself. */
export function HoldPanel(props: { control: PhoneControl }): JSX.Element {
  const c = (): PhoneControl => props.control;
  const holder = (): string | null => c().device()?.held_by ?? null;
  return (
    <div class="card sc-panel" data-testid="screen-hold" data-held-by={holder() ?? ''}>
      <h2 class="sc-panel-title">操作手机</h2>
      <Show
        when={holder()}
        fallback={
          <p data-testid="screen-holder">没有人接管：手机由自动流程使用。接管后自动流程暂停，才能在画面上操作。</p>
        }
      >
        {(who) => (
          <p data-testid="screen-holder">
            <Show when={c().mine()} fallback={<>正由 {who()} 操作中：可以观看，不能操作。</>}>
              你正在操作这台手机（正由 {who()} 操作中），自动流程已暂停。
            </Show>
          </p>
        )}
      </Show>
      <Show when={c().mine() && c().idleReleaseAt()}>
        {(at) => (
          <p class="muted" data-testid="screen-idle-release">
            无操作到 {formatTime(at())} 自动释放
          </p>
        )}
      </Show>
      <div class="sc-buttons">
        <Show
          when={c().mine()}
          fallback={
            <ActionButton action={c().take} class="btn btn-primary" testid="screen-take" busyLabel="正在接管…">
              接管
            </ActionButton>
          }
        >
          <ActionButton action={c().release} testid="screen-release" busyLabel="正在释放…">
            释放
          </ActionButton>
        </Show>
      </div>
      <ErrorMessage testid="screen-hold-error" message={c().take.error() ?? c().release.error()} />
    </div>
  );
}

/** 返回 / 主页 / 最近任务 and typed text: only for the operator holding the phone. */
export function KeysPanel(props: { control: PhoneControl }): JSX.Element {
  const c = (): PhoneControl => props.control;
  const [text, setText] = createSignal('');
  const off = (): boolean => !c().mine() || c().input.busy();
  const key = (k: 'back' | 'home' | 'recents'): void => void c().input.run({ kind: 'key', key: k });
  const send = async (): Promise<void> => {
    const t = text();
    if (t === '') return;
    if ((await c().input.run({ kind: 'text', text: t })) !== undefined) setText('');
  };
  return (
    <div class="card sc-panel" data-testid="screen-keys">
      <div class="sc-buttons">
        <button type="button" class="btn" data-testid="screen-key-back" disabled={off()} onClick={() => key('back')}>
          返回
        </button>
        <button type="button" class="btn" data-testid="screen-key-home" disabled={off()} onClick={() => key('home')}>
          主页
        </button>
        <button
          type="button"
          class="btn"
          data-testid="screen-key-recents"
          disabled={off()}
          onClick={() => key('recents')}
        >
          最近任务
        </button>
      </div>
      <form
        class="sc-text"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <input
          class="input"
          data-testid="screen-text"
          maxLength={500}
          placeholder="输入文字，发送到手机上当前的输入框"
          value={text()}
          disabled={!c().mine()}
          onInput={(e) => setText(e.currentTarget.value.replace(/[\r\n\t]/g, ' '))}
        />
        <button type="submit" class="btn" data-testid="screen-text-send" disabled={off() || text() === ''}>
          发送
        </button>
      </form>
      <ErrorMessage testid="screen-input-error" message={c().input.error()} />
    </div>
  );
}

/** The phone's stop and 处理完毕，继续; a face check is the account holder's own, on the phone. */
export function ResumePanel(props: { control: PhoneControl }): JSX.Element {
  const c = (): PhoneControl => props.control;
  return (
    <>
      <Show when={c().resume.notice()}>
        {(n) => (
          <p class="card sc-panel sc-notice" data-testid="screen-resume-notice">
            {n()}
          </p>
        )}
      </Show>
      <Show when={c().device()?.attention}>
        {(a) => (
          <div class="card sc-panel" data-testid="screen-attention" data-reason={a().reason_code}>
            <h2 class="sc-panel-title">需处理</h2>
            <p data-testid="screen-attention-reason">
              {attentionReasonZh(a().reason_code)} · 自 {formatTime(a().since)}
            </p>
            <Show when={a().reason_code === 'RISK_FACE'}>
              <p class="sc-warn" data-testid="screen-face">
                人脸验证无法远程完成，请账号本人在手机上操作
              </p>
            </Show>
            <p class="muted">在画面上处理完（如拖动滑块、输入验证码），再点「处理完毕，继续」。</p>
            <ActionButton action={c().resume} class="btn btn-primary" testid="screen-resume" busyLabel="正在核对手机…">
              处理完毕，继续
            </ActionButton>
            <ErrorMessage testid="screen-resume-error" message={c().resume.error()} />
            <RawDetail detail={c().resume.error() ? c().blockedPage() : null} testId="screen-resume-page" />
          </div>
        )}
      </Show>
    </>
  );
}
