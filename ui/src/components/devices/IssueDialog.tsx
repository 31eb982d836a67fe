import type { JSX } from 'solid-js';
import type { IssuedDeviceView } from '../../../../domain/devices';
import { deviceWorkerCommand } from '../../../../domain/device-worker-command';
import { issueDevice } from '../../api/endpoints';
import CredentialDialog from './CredentialDialog';
import SetupSteps from './SetupSteps';

/**
 * 发放设备凭据: a name in, a device id and token out. The token is shown here once and never
 * again (the admin keeps only its hash), so the dialog says so and offers what to run on the
 * phone machine — the same builder as 发放主机凭据 (domain/device-worker-command.ts).
 */
export default function IssueDialog(props: { onIssued: () => void; onClose: () => void }): JSX.Element {
  return (
    <CredentialDialog<IssuedDeviceView>
      what="设备"
      testid="device-issue"
      placeholder="例如：深圳-01"
      issue={issueDevice}
      onIssued={() => props.onIssued()}
      onClose={() => props.onClose()}
      back
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
          <SetupSteps
            command={deviceWorkerCommand(i().setup, i())}
            testid="device-issued"
            runs="保存令牌并启动这台手机的设备进程"
            again="重新发放设备凭据"
          />
        </div>
      )}
    </CredentialDialog>
  );
}
