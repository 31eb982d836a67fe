import type { JSX } from 'solid-js';
import type { DeviceView } from '../../../../domain/devices';
import { revokeDevice } from '../../api/endpoints';
import { createAction } from '../../lib/action';
import ConfirmDialog from '../ConfirmDialog';

/** 吊销设备凭据, confirmed first: the phone can claim and upload no more, and it cannot be undone. */
export default function RevokeDialog(props: {
  device: DeviceView;
  onRevoked: () => void;
  onClose: () => void;
}): JSX.Element {
  const d = (): DeviceView => props.device;
  const revoke = createAction(async () => {
    await revokeDevice(d().device_id);
    props.onRevoked();
  });
  return (
    <ConfirmDialog
      title="吊销设备凭据"
      message={`吊销「${d().display_name}」后，这台手机的设备进程将无法再领取任务或上传截图${d().current_task_id ? '（它正在执行一个采购任务）' : ''}。此操作不能撤销，如需继续使用请重新发放。${revoke.error() ?? ''}`}
      confirmLabel="吊销"
      testid="device-revoke-dialog"
      busy={revoke.busy()}
      danger
      onConfirm={() => void revoke.run()}
      onClose={() => props.onClose()}
    />
  );
}
