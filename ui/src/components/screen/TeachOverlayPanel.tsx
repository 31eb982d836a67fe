import { createEffect, createSignal, Show, type JSX } from 'solid-js';
import { routeQuery } from '../../route-table';
import type { PhoneControl } from './phone-control';
import TeachOverlayDialog from './TeachOverlayDialog';

/**
 * 教手机关闭这个弹窗 on a phone's screen: for a popup the phone stopped at (未识别的弹窗), taught
 * for the PDD version this phone runs. `?teach=1` (the link of a task stopped there) opens the
 * dialog as soon as the phone's version is known.
 */
export default function TeachOverlayPanel(props: { control: PhoneControl }): JSX.Element {
  const version = (): string | null => props.control.device()?.app_version ?? null;
  const deviceId = (): string | null => props.control.device()?.device_id ?? null;
  const [open, setOpen] = createSignal(false);
  const [taught, setTaught] = createSignal(false);
  let askedOnce = false;
  createEffect(() => {
    if (askedOnce || routeQuery().get('teach') !== '1' || version() === null) return;
    askedOnce = true;
    setOpen(true);
  });
  return (
    <div class="card sc-panel" data-testid="screen-teach">
      <h2 class="sc-panel-title">未识别的弹窗</h2>
      <p class="muted">
        手机遇到认不出的弹窗会停下、不点它。教会它怎么关闭，审核启用后同一版本的手机都会自己关闭这个弹窗。
      </p>
      <div class="sc-buttons">
        <button
          type="button"
          class="btn"
          data-testid="screen-teach-open"
          disabled={version() === null}
          title={version() === null ? '这台手机还没有报告拼多多版本' : undefined}
          onClick={() => {
            setTaught(false);
            setOpen(true);
          }}
        >
          教手机关闭这个弹窗
        </button>
      </div>
      <Show when={taught()}>
        <p class="muted" data-testid="screen-teach-done">
          已提交，等待审核：在「设备 → 拼多多版本」里审核启用后生效。
        </p>
      </Show>
      <Show when={open() ? version() : null}>
        {(v) => (
          <TeachOverlayDialog
            version={v()}
            screen={deviceId() ? { deviceId: deviceId() as string, held: props.control.mine() } : undefined}
            onTaught={() => {
              setOpen(false);
              setTaught(true);
            }}
            onClose={() => setOpen(false)}
          />
        )}
      </Show>
    </div>
  );
}
