import { createSignal, type JSX } from 'solid-js';
import { renameDevice, setDevicePddAccount } from '../../api/endpoints';
import { createAction } from '../../lib/action';
import FormDialog from '../FormDialog';
import NameField from './NameField';

/**
 * 改名: the phone keeps its id, token and records; only what operators call it changes — and the
 * PDD account it is logged in as, which the pay list (采购任务 → 待付款) shows beside its orders.
 */
export default function RenameDialog(props: {
  deviceId: string;
  current: string;
  /** the PDD account as set now ('' when not) */
  currentAccount: string;
  onDone: () => void;
  onClose: () => void;
}): JSX.Element {
  const [name, setName] = createSignal(props.current);
  const [account, setAccount] = createSignal(props.currentAccount);
  const rename = createAction(async () => {
    if (name().trim() !== props.current) await renameDevice(props.deviceId, name());
    if (account().trim() !== props.currentAccount)
      await setDevicePddAccount(props.deviceId, account().trim() === '' ? null : account().trim());
    props.onDone();
  });
  const save = (): void => {
    if (name().trim() === '') rename.setError('请输入设备名称');
    else void rename.run();
  };
  return (
    <FormDialog
      title="修改设备名称与拼多多账号"
      testid="device-rename-dialog"
      onClose={() => props.onClose()}
      submitLabel="保存"
      submitTestid="device-rename-save"
      busy={rename.busy()}
      onSubmit={save}
    >
      <NameField
        label="设备名称"
        testid="device-rename-input"
        field="device-rename"
        value={name()}
        onInput={setName}
        onEnter={save}
        error={rename.error()}
      />
      <NameField
        label="拼多多账号（这台手机登录的账号，付款时按它找手机；留空表示未填写）"
        testid="device-pdd-account-input"
        field="device-pdd-account"
        value={account()}
        onInput={setAccount}
        onEnter={save}
        error={null}
      />
    </FormDialog>
  );
}
