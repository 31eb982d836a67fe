import type { JSX } from 'solid-js';
import { claimBlockZh } from '../../../../domain/claimability';
import type { DeviceView } from '../../../../domain/devices';

/** What fits on the chip after 在线 · ; the full words are its title (and the lines under it). */
const SHORT_ZH: Record<string, string> = {
  SCREEN_LOCKED: '屏幕锁定',
  STORAGE_LOW: '存储不足',
  // Temporal still sees its worker, yet the phone has not reported to the admin lately
  DEVICE_OFFLINE: '3 分钟未上报',
  DEVICE_PENDING: '待批准',
  DEVICE_PAUSED: '已暂停',
  DEVICE_NEEDS_ATTENTION: '需处理',
  DEVICE_HELD: '人工操作中',
  APP_VERSION_UNPROFILED: '版本无页面配置',
};

function shortZh(d: DeviceView, code: string): string {
  if (code === 'BATTERY_LOW') return d.health ? `电量低 ${d.health.battery_level}%` : '电量低';
  return SHORT_ZH[code] ?? claimBlockZh(code);
}

/**
 * 离线, or 在线 — green only while the phone may take a purchase by the claim rule
 * (`claim_blocked_by`); an online phone that may not is amber with why. A phone busy with a
 * task is working, so it stays green.
 */
export default function OnlineChip(props: { device: DeviceView }): JSX.Element {
  const d = (): DeviceView => props.device;
  const block = () => {
    const b = d().claim_blocked_by;
    return d().online && b && b.reason_code !== 'DEVICE_BUSY' ? b : null;
  };
  const tone = () => (!d().online ? 'tk-tone-done' : block() ? 'tk-tone-attention' : 'tk-tone-ok');
  const text = () => {
    const b = block();
    if (!d().online) return '离线';
    return b ? `在线 · ${shortZh(d(), b.reason_code)}` : '在线';
  };
  const title = () => {
    const b = block();
    return b ? `不领取任务：${b.reason_zh}` : undefined;
  };
  return (
    <span
      class={`tk-badge ${tone()}`}
      data-testid="device-online"
      data-claim-block={block()?.reason_code ?? ''}
      title={title()}
    >
      {text()}
    </span>
  );
}
