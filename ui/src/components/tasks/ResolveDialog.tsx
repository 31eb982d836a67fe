import { createSignal, Show, type JSX } from 'solid-js';
import FormDialog from '../FormDialog';
import TextField from '../TextField';

interface Props {
  busy: boolean;
  onCreated: (pddOrderNo: string) => void;
  onClose: () => void;
}

/** 核对结果 → 已创建: the operator found the order in PDD and copies its number here. */
export default function ResolveDialog(props: Props): JSX.Element {
  const [pddOrderNo, setPddOrderNo] = createSignal('');
  const [error, setError] = createSignal<string | null>(null);
  const submit = (): void => {
    const v = pddOrderNo().trim();
    if (v === '') {
      setError('请填写拼多多订单号');
      return;
    }
    if (v.length > 64) {
      setError('拼多多订单号过长');
      return;
    }
    props.onCreated(v);
  };
  return (
    <FormDialog
      title="核对结果：订单已创建"
      testid="resolve-dialog"
      onClose={() => props.onClose()}
      submitLabel="确认已创建"
      submitTestid="resolve-confirm"
      backTestid="resolve-back"
      busy={props.busy}
      onSubmit={submit}
    >
      <p>请在拼多多手机应用「待付款」中找到这次提交创建的订单，填写它的拼多多订单号。</p>
      <TextField label="拼多多订单号" testid="resolve-order-no" value={pddOrderNo()} onValue={setPddOrderNo} />
      <Show when={error()}>
        {(msg) => (
          <p class="form-error" data-testid="resolve-error">
            {msg()}
          </p>
        )}
      </Show>
    </FormDialog>
  );
}
