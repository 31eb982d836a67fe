import { createSignal, Show, type JSX } from 'solid-js';
import { DEVICE_NAME_MAX_LENGTH, type IssuedDeviceView } from '../../../../domain/devices';
import { deviceWorkerCommand, temporalIsLoopback } from '../../../../domain/device-worker-command';
import { issueDevice } from '../../api/endpoints';
import { errorText } from '../../errors';
import FieldError from '../FieldError';
import Modal from '../Modal';

/**
 * 发放设备凭据: a name in, a device id and token out. The token is shown here once and never
 * again (the admin keeps only its hash), so the dialog says so and offers the whole command.
 */
export default function IssueDialog(props: { onIssued: () => void; onClose: () => void }): JSX.Element {
  const [name, setName] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [issued, setIssued] = createSignal<IssuedDeviceView | null>(null);
  const [copied, setCopied] = createSignal(false);

  const issue = async (): Promise<void> => {
    if (name().trim() === '') {
      setError('请输入设备名称');
      return;
    }
    setBusy(true);
    try {
      setIssued(await issueDevice(name()));
      setError(null);
      props.onIssued();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const command = (): string => {
    const i = issued();
    if (!i) return '';
    return i.worker_hints
      ? deviceWorkerCommand(i, i.worker_hints, window.location.origin)
      : `CMAUTOBUY_DEVICE_TOKEN=${i.token} npm run device-worker -- --device-id ${i.device_id} --serial <adb serial> --admin-url ${window.location.origin}`;
  };
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(command());
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard (plain http): the operator selects the text instead
    }
  };

  return (
    <Modal
      title={issued() ? '设备凭据已发放' : '发放设备凭据'}
      testid="device-issue-dialog"
      onClose={() => props.onClose()}
      footer={
        <Show
          when={issued()}
          fallback={
            <>
              <button type="button" class="btn" onClick={() => props.onClose()}>
                返回
              </button>
              <button
                type="button"
                class="btn btn-primary"
                data-testid="device-issue-submit"
                disabled={busy()}
                onClick={() => void issue()}
              >
                发放
              </button>
            </>
          }
        >
          <button type="button" class="btn" data-testid="device-issue-copy" onClick={() => void copy()}>
            {copied() ? '已复制' : '复制命令'}
          </button>
          <button
            type="button"
            class="btn btn-primary"
            data-testid="device-issue-close"
            onClick={() => props.onClose()}
          >
            我已保存，关闭
          </button>
        </Show>
      }
    >
      <Show
        when={issued()}
        fallback={
          <>
            <label class="field">
              <span class="field-label">设备名称</span>
              <input
                class="input"
                data-testid="device-issue-name"
                maxLength={DEVICE_NAME_MAX_LENGTH}
                placeholder="例如：深圳-01"
                value={name()}
                onInput={(e) => setName(e.currentTarget.value)}
                onKeyDown={(e) => e.key === 'Enter' && void issue()}
              />
            </label>
            <FieldError field="device-issue" message={error()} />
          </>
        }
      >
        {(i) => (
          <div data-testid="device-issued">
            <p class="tk-warn">
              令牌只显示这一次，关闭后无法再查看。请立即复制并保存在手机主机上（不要放在 data 目录下）。
            </p>
            <dl class="tk-facts">
              <dt>设备名称</dt>
              <dd>{i().display_name}</dd>
              <dt>设备 ID</dt>
              <dd class="tk-mono" data-testid="device-issued-id">
                {i().device_id}
              </dd>
              <dt>令牌</dt>
              <dd class="tk-mono" data-testid="device-issued-token">
                {i().token}
              </dd>
            </dl>
            <p class="muted">在连接手机的主机上运行（把 &lt;adb serial&gt; 换成 adb devices 列出的序列号）：</p>
            <pre class="tk-mono dv-command" data-testid="device-issued-command">
              {command()}
            </pre>
            <Show when={i().worker_hints && temporalIsLoopback(i().worker_hints!)}>
              <p class="muted" data-testid="device-issued-temporal-hint">
                管理端连接的 Temporal 只监听本机（{i().worker_hints!.temporal_address}）：在其他主机上运行时，把
                &lt;Temporal 地址:7233&gt; 换成那台主机能连到的 Temporal 地址。
              </p>
            </Show>
          </div>
        )}
      </Show>
    </Modal>
  );
}
