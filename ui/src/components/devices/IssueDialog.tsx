import { createSignal, Show, type JSX } from 'solid-js';
import type { IssuedDeviceView } from '../../../../domain/devices';
import { deviceWorkerCommand, temporalIsLoopback } from '../../../../domain/device-worker-command';
import { issueDevice } from '../../api/endpoints';
import CredentialDialog from './CredentialDialog';

/**
 * 发放设备凭据: a name in, a device id and token out. The token is shown here once and never
 * again (the admin keeps only its hash), so the dialog says so and offers the whole command.
 */
export default function IssueDialog(props: { onIssued: () => void; onClose: () => void }): JSX.Element {
  const [command, setCommand] = createSignal('');
  const [copied, setCopied] = createSignal(false);
  const issue = async (name: string): Promise<IssuedDeviceView> => {
    const i = await issueDevice(name);
    setCommand(
      i.worker_hints
        ? deviceWorkerCommand(i, i.worker_hints, window.location.origin)
        : `CMAUTOBUY_DEVICE_TOKEN=${i.token} npm run device-worker -- --device-id ${i.device_id} --serial <adb serial> --admin-url ${window.location.origin}`,
    );
    return i;
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
    <CredentialDialog<IssuedDeviceView>
      what="设备"
      testid="device-issue"
      placeholder="例如：深圳-01"
      issue={issue}
      onIssued={() => props.onIssued()}
      onClose={() => props.onClose()}
      back
      actions={
        <button type="button" class="btn" data-testid="device-issue-copy" onClick={() => void copy()}>
          {copied() ? '已复制' : '复制命令'}
        </button>
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
    </CredentialDialog>
  );
}
