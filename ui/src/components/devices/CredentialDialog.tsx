import { createSignal, Show, type JSX } from 'solid-js';
import { createAction } from '../../lib/action';
import FormDialog from '../FormDialog';
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
  const [issued, setIssued] = createSignal<T | null>(null);
  const issue = createAction(async () => {
    const got = await props.issue(name());
    setIssued(() => got);
    props.onIssued?.();
  });
  const submit = (): void => {
    if (name().trim() === '') issue.setError(`请输入${props.what}名称`);
    else void issue.run();
  };
  return (
    <Show
      when={issued() !== null}
      fallback={
        <FormDialog
          title={`发放${props.what}凭据`}
          testid={`${props.testid}-dialog`}
          onClose={() => props.onClose()}
          submitLabel="发放"
          submitTestid={`${props.testid}-submit`}
          busy={issue.busy()}
          onSubmit={submit}
          back={props.back === true}
        >
          <NameField
            label={`${props.what}名称`}
            testid={`${props.testid}-name`}
            field={props.testid}
            placeholder={props.placeholder}
            value={name()}
            onInput={setName}
            onEnter={submit}
            error={issue.error()}
          />
        </FormDialog>
      }
    >
      <Modal
        title={`${props.what}凭据已发放`}
        testid={`${props.testid}-dialog`}
        onClose={() => props.onClose()}
        footer={
          <>
            {props.actions}
            <button
              type="button"
              class="btn btn-primary"
              data-testid={`${props.testid}-close`}
              onClick={() => props.onClose()}
            >
              我已保存，关闭
            </button>
          </>
        }
      >
        {props.children(() => issued() as T)}
      </Modal>
    </Show>
  );
}
