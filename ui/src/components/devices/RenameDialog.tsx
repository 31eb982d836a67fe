import { createSignal, type JSX } from 'solid-js';
import { renameDevice } from '../../api/endpoints';
import { createAction } from '../../lib/action';
import FormDialog from '../FormDialog';
import NameField from './NameField';

/** 改名: the phone keeps its id, token and records; only what operators call it changes. */
export default function RenameDialog(props: {
  deviceId: string;
  current: string;
  onDone: () => void;
  onClose: () => void;
}): JSX.Element {
  const [name, setName] = createSignal(props.current);
  const rename = createAction(async () => {
    await renameDevice(props.deviceId, name());
    props.onDone();
  });
  const save = (): void => {
    if (name().trim() === '') rename.setError('请输入设备名称');
    else void rename.run();
  };
  return (
    <FormDialog
      title="修改设备名称"
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
    </FormDialog>
  );
}
