import { createSignal, For, Show, type JSX } from 'solid-js';
import { ApiError } from '../../api/client';
import { teachOverlay, type OverlayTeaching, type TaughtOverlay } from '../../api/endpoints';
import { createAction } from '../../lib/action';
import ErrorMessage from '../ErrorMessage';
import Modal from '../Modal';
import TextField from '../TextField';
import RawDetail from '../tasks/RawDetail';
import {
  CLOSE_CLASSES,
  closeTapZh,
  fieldZh,
  matcherZh,
  MAX_SIGNATURE_LINES,
  teachingOf,
  withCloseNode,
  withSignatureNode,
  type CloseBy,
  type TeachForm,
} from './overlay-entry';
import ScreenNodesPicker from './ScreenNodesPicker';
import './overlays.css';

/**
 * 教手机关闭这个弹窗: the operator writes what the popup shows and which control closes it (or
 * marks them among what the held phone read, 从屏幕读取), sees
 * the entry as the phone will use it (核对), and sends it. It waits for 审核启用 under
 * 设备 → 拼多多版本 before any phone acts on it; a refusal says why in Chinese.
 */
export default function TeachOverlayDialog(props: {
  /** the PDD app version the phones run (设备's 拼多多版本) */
  version: string;
  /** the phone on whose screen it is taught: offers 从屏幕读取 (only while this operator holds it) */
  screen?: { deviceId: string; held: boolean } | undefined;
  onTaught: (overlay: TaughtOverlay) => void;
  onClose: () => void;
}): JSX.Element {
  const [form, setForm] = createSignal<TeachForm>({
    name: '',
    lines: '',
    closeBy: 'text',
    closeText: '',
    closeClass: '',
    descLines: [],
    closeNode: null,
  });
  const [checking, setChecking] = createSignal<OverlayTeaching | null>(null);
  const [formError, setFormError] = createSignal<string | null>(null);
  const set = (change: Partial<TeachForm>): void => {
    setForm((f) => ({ ...f, ...change }));
  };

  const teach = createAction(
    async (teaching: OverlayTeaching) => {
      const taught = await teachOverlay(props.version, teaching);
      props.onTaught(taught);
      return taught;
    },
    {
      failure: (err, text) => {
        const where = err instanceof ApiError ? fieldZh((err.details as { field?: unknown } | null)?.field) : null;
        return where ? `${text}（问题在「${where}」）` : text;
      },
    },
  );

  const toCheck = (): void => {
    const built = teachingOf(form());
    if ('error' in built) {
      setFormError(built.error);
      return;
    }
    setFormError(null);
    teach.setError(null);
    setChecking(built.teaching);
  };

  return (
    <Modal
      title="教手机关闭这个弹窗"
      testid="teach-overlay-dialog"
      onClose={() => props.onClose()}
      footer={
        <TeachFooter
          checking={checking()}
          busy={teach.busy()}
          onClose={() => props.onClose()}
          onCheck={toCheck}
          onEdit={() => setChecking(null)}
          onSend={(teaching) => void teach.run(teaching)}
        />
      }
    >
      <p class="muted">拼多多版本 {props.version}</p>
      <Show
        when={checking()}
        fallback={<TeachFields form={form()} set={set} error={formError()} screen={props.screen} />}
      >
        {(teaching) => <TeachCheck teaching={teaching()} refusal={teach.error()} />}
      </Show>
    </Modal>
  );
}

/** 返回 and 下一步：核对 while writing; 返回修改 and 提交 while checking. */
function TeachFooter(props: {
  checking: OverlayTeaching | null;
  busy: boolean;
  onClose: () => void;
  onCheck: () => void;
  onEdit: () => void;
  onSend: (teaching: OverlayTeaching) => void;
}): JSX.Element {
  return (
    <Show
      when={props.checking}
      fallback={
        <>
          <button type="button" class="btn" data-testid="teach-overlay-cancel" onClick={() => props.onClose()}>
            返回
          </button>
          <button
            type="button"
            class="btn btn-primary"
            data-testid="teach-overlay-next"
            onClick={() => props.onCheck()}
          >
            下一步：核对
          </button>
        </>
      }
    >
      {(teaching) => (
        <>
          <button
            type="button"
            class="btn"
            data-testid="teach-overlay-edit"
            disabled={props.busy}
            onClick={() => props.onEdit()}
          >
            返回修改
          </button>
          <button
            type="button"
            class="btn btn-primary"
            data-testid="teach-overlay-submit"
            disabled={props.busy}
            onClick={() => props.onSend(teaching())}
          >
            {props.busy ? '正在提交…' : '提交，等待审核'}
          </button>
        </>
      )}
    </Show>
  );
}

/** The form: a name for the logs, the popup's texts, the control that closes it. */
function TeachFields(props: {
  form: TeachForm;
  set: (c: Partial<TeachForm>) => void;
  error: string | null;
  screen?: { deviceId: string; held: boolean } | undefined;
}): JSX.Element {
  return (
    <div class="ov-form">
      <Show when={props.screen}>
        {(screen) => (
          <ScreenNodesPicker
            deviceId={screen().deviceId}
            held={screen().held}
            onSignature={(node) => props.set(withSignatureNode(props.form, node))}
            onClose={(node) => props.set(withCloseNode(node))}
          />
        )}
      </Show>
      <TextField
        label="名称（英文小写）"
        testid="teach-overlay-name"
        maxLength={48}
        value={props.form.name}
        onValue={(name) => props.set({ name })}
      >
        <span class="muted tk-hint">给工程师看日志用：小写字母、数字和下划线，以字母开头。</span>
      </TextField>
      <label class="field">
        <span class="field-label">弹窗上的文字</span>
        <textarea
          class="input ov-lines"
          data-testid="teach-overlay-lines"
          rows={3}
          value={props.form.lines}
          onInput={(e) => props.set({ lines: e.currentTarget.value })}
        />
        <span class="muted tk-hint">
          每行一段弹窗上显示的文字，须一字不差（最多 {MAX_SIGNATURE_LINES}{' '}
          行）；这些文字同时出现时，手机才认为是这个弹窗。
        </span>
      </label>
      <DescLines form={props.form} set={props.set} />
      <CloseFields form={props.form} set={props.set} />
      <ErrorMessage testid="teach-overlay-form-error" message={props.error} />
    </div>
  );
}

/** The descriptions marked on 从屏幕读取 that the popup must show too, each removable. */
function DescLines(props: { form: TeachForm; set: (c: Partial<TeachForm>) => void }): JSX.Element {
  return (
    <Show when={props.form.descLines.length > 0}>
      <ul class="ov-list" data-testid="teach-overlay-desc-lines">
        <For each={props.form.descLines}>
          {(desc) => (
            <li>
              还要有描述为「{desc}」的控件{' '}
              <button
                type="button"
                class="btn btn-ghost"
                onClick={() => props.set({ descLines: props.form.descLines.filter((d) => d !== desc) })}
              >
                去掉
              </button>
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}

/** The control that closes the popup: by its text or description (typed or marked), or a marked one without either. */
function CloseFields(props: { form: TeachForm; set: (c: Partial<TeachForm>) => void }): JSX.Element {
  return (
    <>
      <div class="field">
        <span class="field-label">关闭它的按钮</span>
        <div class="ov-close">
          <select
            class="input ov-close-by"
            data-testid="teach-overlay-close-by"
            aria-label="按钮上的是"
            onChange={(e) => props.set({ closeBy: e.currentTarget.value as CloseBy })}
          >
            <option value="text" selected={props.form.closeBy === 'text'}>
              按钮上的文字
            </option>
            <option value="content_desc" selected={props.form.closeBy === 'content_desc'}>
              按钮的描述
            </option>
          </select>
          <input
            class="input"
            data-testid="teach-overlay-close"
            aria-label="关闭它的按钮"
            value={props.form.closeText}
            onInput={(e) => props.set({ closeText: e.currentTarget.value, closeNode: null })}
          />
        </div>
        <Show when={props.form.closeNode !== null && props.form.closeText.trim() === ''}>
          <span class="muted tk-hint" data-testid="teach-overlay-close-node">
            已选屏幕上一个没有文字的控件：手机按它的类型和位置找到它。{' '}
            <button type="button" class="btn btn-ghost" onClick={() => props.set({ closeNode: null })}>
              取消选择
            </button>
          </span>
        </Show>
        <span class="muted tk-hint">
          只能是关闭、跳过、× 这类按钮：会领取、使用、支付、确定或跳转的按钮不会被接受。没有文字的 ×
          一般有描述（如「关闭」）。
        </span>
      </div>
      <label class="field">
        <span class="field-label">按钮类型（可不选）</span>
        <select
          class="input"
          data-testid="teach-overlay-class"
          onChange={(e) => props.set({ closeClass: e.currentTarget.value })}
        >
          <For each={CLOSE_CLASSES}>
            {(c) => (
              <option value={c.value} selected={c.value === props.form.closeClass}>
                {c.label}
              </option>
            )}
          </For>
        </select>
      </label>
    </>
  );
}

/** 核对: the entry as the phone will use it, before it is sent. */
function TeachCheck(props: { teaching: OverlayTeaching; refusal: string | null }): JSX.Element {
  const t = (): OverlayTeaching => props.teaching;
  return (
    <div class="ov-check" data-testid="teach-overlay-check">
      <p>手机认出这个弹窗：画面上同时有</p>
      <ul class="ov-list">
        <For each={t().signature}>{(m) => <li data-testid="teach-overlay-check-signature">{matcherZh(m)}</li>}</For>
      </ul>
      <p data-testid="teach-overlay-check-close">关闭它：点{matcherZh(t().close)}的控件，不点别的。</p>
      <p class="ov-sentence" data-testid="teach-overlay-sentence">
        审核启用后，手机遇到这个弹窗会自己点「{closeTapZh(t().close)}」关闭
      </p>
      <p class="muted">提交后要在「设备 → 拼多多版本」里审核启用，手机才会这样做。</p>
      <ErrorMessage testid="teach-overlay-error" message={props.refusal} />
      <RawDetail detail={JSON.stringify(t())} testId="teach-overlay-raw" />
    </div>
  );
}
