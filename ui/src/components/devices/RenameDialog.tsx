import { createSignal, type JSX } from 'solid-js';
import { renameDevice } from '../../api/endpoints';
import { errorText } from '../../errors';
import Modal from '../Modal';
import NameField from './NameField';

/** 改名: the phone keeps its id, token and records; only what operators call it changes. */
export default function RenameDialog(props: {
  deviceId: string;
  current: string;
  onDone: () => void;
  onClose: () => void;
}): JSX.Element {
  const [name, setName] = createSignal(props.current);
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const save = async (): Promise<void> => {
    if (name().trim() === '') {
      setError('请输入设备名称');
      return;
    }
    setBusy(true);
    try {
      await renameDevice(props.deviceId, name());
      props.onDone();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title="修改设备名称"
      testid="device-rename-dialog"
      onClose={() => props.onClose()}
      footer={
        <>
          <button type="button" class="btn" onClick={() => props.onClose()}>
            返回
          </button>
          <button
            type="button"
            class="btn btn-primary"
            data-testid="device-rename-save"
            disabled={busy()}
            onClick={() => void save()}
          >
            保存
          </button>
        </>
      }
    >
      <NameField
        label="设备名称"
        testid="device-rename-input"
        field="device-rename"
        value={name()}
        onInput={setName}
        onEnter={() => void save()}
        error={error()}
      />
    </Modal>
  );
}
