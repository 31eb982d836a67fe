import { createSignal, Show, type JSX } from 'solid-js';
import { errorText } from '../../errors';
import Modal from '../Modal';
import NameField from './NameField';

/**
 * 发放设备凭据 / 发放主机凭据: a name in, an id and token out. The token is shown once and never
 * again (the admin keeps only its hash), so what was issued stays in the dialog until the
 * operator says it is saved. `testid` is the prefix (`device-issue` → `device-issue-name`, …).
 */
export default function CredentialDialog<T>(props: {
  /** 设备 | 主机 */
  what: string;
  testid: string;
  placeholder: string;
  issue: (name: string) => Promise<T>;
  onIssued?: () => void;
  onClose: () => void;
  /** a 返回 button beside 发放 */
  back?: boolean;
  /** buttons before 我已保存，关闭 once issued */
  actions?: JSX.Element;
  /** what was issued, as the operator must copy it */
  children: (issued: () => T) => JSX.Element;
}): JSX.Element {
  const [name, setName] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [issued, setIssued] = createSignal<T | null>(null);
  const issue = async (): Promise<void> => {
    if (name().trim() === '') return void setError(`请输入${props.what}名称`);
    setBusy(true);
    try {
      const got = await props.issue(name());
      setIssued(() => got);
      setError(null);
      props.onIssued?.();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={issued() !== null ? `${props.what}凭据已发放` : `发放${props.what}凭据`}
      testid={`${props.testid}-dialog`}
      onClose={() => props.onClose()}
      footer={
        <CredentialFooter
          testid={props.testid}
          issued={issued() !== null}
          back={props.back === true}
          busy={busy()}
          actions={props.actions}
          onIssue={() => void issue()}
          onClose={() => props.onClose()}
        />
      }
    >
      <Show
        when={issued() !== null}
        fallback={
          <NameField
            label={`${props.what}名称`}
            testid={`${props.testid}-name`}
            field={props.testid}
            placeholder={props.placeholder}
            value={name()}
            onInput={setName}
            onEnter={() => void issue()}
            error={error()}
          />
        }
      >
        {props.children(() => issued() as T)}
      </Show>
    </Modal>
  );
}

/** 发放 (with 返回 when asked) until issued; then the caller's buttons and 我已保存，关闭. */
function CredentialFooter(props: {
  testid: string;
  issued: boolean;
  back: boolean;
  busy: boolean;
  actions: JSX.Element | undefined;
  onIssue: () => void;
  onClose: () => void;
}): JSX.Element {
  const submit = (): JSX.Element => (
    <button
      type="button"
      class="btn btn-primary"
      data-testid={`${props.testid}-submit`}
      disabled={props.busy}
      onClick={() => props.onIssue()}
    >
      发放
    </button>
  );
  return (
    <Show
      when={props.issued}
      fallback={
        <Show when={props.back} fallback={submit()}>
          <button type="button" class="btn" onClick={() => props.onClose()}>
            返回
          </button>
          {submit()}
        </Show>
      }
    >
      {props.actions}
      <button
        type="button"
        class="btn btn-primary"
        data-testid={`${props.testid}-close`}
        onClick={() => props.onClose()}
      >
        我已保存，关闭
      </button>
    </Show>
  );
}
