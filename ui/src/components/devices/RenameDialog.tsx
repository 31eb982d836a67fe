import { createSignal, type JSX } from 'solid-js';
import { DEVICE_NAME_MAX_LENGTH } from '../../../../domain/devices';
import { renameDevice } from '../../api/endpoints';
import { errorText } from '../../errors';
import FieldError from '../FieldError';
import Modal from '../Modal';

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
      <label class="field">
        <span class="field-label">设备名称</span>
        <input
          class="input"
          data-testid="device-rename-input"
          maxLength={DEVICE_NAME_MAX_LENGTH}
          value={name()}
          onInput={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && void save()}
        />
      </label>
      <FieldError field="device-rename" message={error()} />
    </Modal>
  );
}
