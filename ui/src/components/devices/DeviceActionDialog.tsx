import type { JSX } from 'solid-js';
import { attentionReasonZh, type DeviceView } from '../../../../domain/devices';
import { approveDevice, pauseDevice, rejectDevice, resumeDevice } from '../../api/endpoints';
import { createAction } from '../../lib/action';
import ConfirmDialog from '../ConfirmDialog';

/** The row actions that change what a phone does; each is asked about first (吊销 has RevokeDialog). */
export type DeviceAction = 'approve' | 'reject' | 'pause' | 'resume';

const ACTIONS: Record<
  DeviceAction,
  { label: string; call: (deviceId: string) => Promise<unknown>; danger?: true; what: (d: DeviceView) => string }
> = {
  approve: {
    label: '批准',
    call: approveDevice,
    what: (d) => `批准后，「${d.display_name}」（${phoneOf(d)}）将开始领取并执行采购任务。请先确认这是本公司的手机。`,
  },
  reject: {
    label: '拒绝',
    call: rejectDevice,
    danger: true,
    what: (d) => `拒绝后，「${d.display_name}」（${phoneOf(d)}）从设备列表移除，不会领取任务。`,
  },
  pause: {
    label: '暂停',
    call: pauseDevice,
    what: (d) =>
      `暂停后，「${d.display_name}」不再领取新任务，直到点「恢复」${d.current_task_id ? '（它正在执行的任务不受影响）' : ''}。`,
  },
  resume: {
    label: '恢复',
    call: resumeDevice,
    what: (d) =>
      `${d.attention && d.attention.reason_code !== 'PAUSED_BY_OPERATOR' ? `请先确认已在手机上处理完毕（${attentionReasonZh(d.attention.reason_code)}）。` : ''}恢复后，「${d.display_name}」先读一次屏幕，确认没有需要人工处理的页面后重新领取任务。`,
  },
};

/** The phone as the person at the rack sees it: model, serial and, for a phone host's phone, the host. */
function phoneOf(d: DeviceView): string {
  const host = d.host_name ? `主机「${d.host_name}」` : '';
  return [d.model, d.serial, host].filter((s) => s).join(' · ') || '未上报型号';
}

/** 批准 / 拒绝 / 暂停 / 恢复 one phone, confirmed first and named; nothing changes on 返回. */
export default function DeviceActionDialog(props: {
  device: DeviceView;
  action: DeviceAction;
  onDone: () => void;
  onClose: () => void;
}): JSX.Element {
  const a = () => ACTIONS[props.action];
  const act = createAction(async () => {
    await a().call(props.device.device_id);
    props.onDone();
  });
  return (
    <ConfirmDialog
      title={`${a().label}设备「${props.device.display_name}」`}
      message={`${a().what(props.device)}${act.error() ? ` ${act.error()}` : ''}`}
      confirmLabel={a().label}
      testid={`device-${props.action}-dialog`}
      busy={act.busy()}
      danger={a().danger}
      onConfirm={() => void act.run()}
      onClose={() => props.onClose()}
    />
  );
}
