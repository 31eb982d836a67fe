import { Show, type JSX } from 'solid-js';
import type { DeviceView } from '../../../../domain/devices';
import { hostSetupCommand } from '../../../../domain/host-setup';
import { issueHost, type IssuedHostView } from '../../api/endpoints';
import { formatTime } from '../../lib/time';
import CredentialDialog from './CredentialDialog';
import SetupSteps from './SetupSteps';

const SCREEN_ZH = { on: '亮屏', off: '黑屏', locked: '锁屏' } as const;

function storageZh(mb: number): string {
  return mb >= 1024 ? `${(mb / 1024).toFixed(1)} GB` : `${mb} MB`;
}

/** A phone host's side of one phone (docs/phone-hosts.md): 待批准, its health, why it takes no claim. */
export function PhoneHostStatus(props: { device: DeviceView }): JSX.Element {
  const d = (): DeviceView => props.device;
  return (
    <>
      <Show when={d().state === 'pending'}>
        <div data-testid="device-pending">
          <span class="tk-badge tk-tone-attention">待批准</span>
          <div class="tk-reason">确认是本公司的手机后点「批准」</div>
        </div>
      </Show>
      <Show when={d().health}>
        {(h) => (
          <div class="tk-reason" data-testid="device-health" title={`检查于 ${formatTime(h().checked_at)}`}>
            电量 {h().battery_level}%{h().charging ? '·充电中' : ''} · {SCREEN_ZH[h().screen]} · 剩余{' '}
            {storageZh(h().free_storage_mb)}
          </div>
        )}
      </Show>
      <Show when={d().temporal_missing}>
        <div class="tk-reason" data-testid="device-temporal-missing">
          已注册，未连上 Temporal：检查这台手机设备进程的 CMAUTOBUY_TEMPORAL_ADDRESS 和 CMAUTOBUY_TEMPORAL_NAMESPACE
        </div>
      </Show>
      <Show when={d().state !== 'pending' && d().claim_block}>
        {(b) => (
          <div class="tk-reason" data-testid="device-claim-block" data-reason={b().reason_code}>
            不领取任务：{b().message}
          </div>
        )}
      </Show>
    </>
  );
}

/** The phone host a phone came from, by the name it was issued under; its id only when the name is unknown. */
export function hostZh(d: DeviceView): string {
  return d.host_name ? `主机「${d.host_name}」` : `主机 ${d.host_id?.slice(0, 8) ?? ''}`;
}

/**
 * 发放主机凭据: the host id and token, shown once, with what to run on the phone machine
 * (SetupSteps: from 设置's 管理服务对外地址, never from the address this browser uses).
 */
export function HostIssueDialog(props: { onClose: () => void }): JSX.Element {
  return (
    <CredentialDialog<IssuedHostView>
      what="主机"
      testid="host-issue"
      placeholder="例如：深圳-机房1"
      issue={issueHost}
      onClose={() => props.onClose()}
    >
      {(i) => (
        <div data-testid="host-issued">
          <p class="tk-warn">令牌只显示这一次，关闭后无法再查看。</p>
          <pre class="tk-mono dv-command" data-testid="host-issued-token">
            {`host_id=${i().host_id}\ntoken=${i().token}`}
          </pre>
          <SetupSteps
            command={hostSetupCommand(i().setup, i())}
            testid="host-issued"
            runs="保存令牌并启动手机主机；加密密钥由管理服务经主机通道下发"
            again="重新发放主机凭据（或在主机上用 CMAUTOBUY_ADMIN_PUBLIC_URL 指定该地址）"
          />
          <p class="muted">插上的手机会以「待批准」出现在这里。</p>
        </div>
      )}
    </CredentialDialog>
  );
}
