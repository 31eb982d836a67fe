import type { NodeMatcher } from '../../../../domain/pdd-overlay';
import type { ScreenNode } from '../../../../domain/screen-nodes';
import type { OverlayTeaching } from '../../api/endpoints';

/**
 * 教弹窗 in the operator's words: what the form becomes (the entry the admin checks with the
 * profile's own rules, domain/pdd-overlay.ts) and how an entry reads back in Chinese. The rules
 * themselves stay the admin's: a close control that accepts or pays is refused there, so the form
 * and the API can never disagree about it.
 */

/** The admin's rule for a name (admin/devices/taught-overlays.ts): engineers read it in logs. */
const NAME_RE = /^[a-z][a-z0-9_]{0,47}$/;
/** At most this many texts must all show for the phone to recognise the popup. */
export const MAX_SIGNATURE_LINES = 8;

/** The kinds of control a close button may be; the class names are Android's, shown to engineers only. */
export const CLOSE_CLASSES: ReadonlyArray<{ value: string; label: string }> = [
  { value: '', label: '不限' },
  { value: 'android.widget.ImageView', label: '图片（如 ×）' },
  { value: 'android.widget.ImageButton', label: '图片按钮' },
  { value: 'android.widget.Button', label: '按钮' },
  { value: 'android.widget.TextView', label: '文字' },
];

export type CloseBy = 'text' | 'content_desc';

export interface TeachForm {
  name: string;
  /** one text of the popup per line, exactly as it shows */
  lines: string;
  closeBy: CloseBy;
  closeText: string;
  closeClass: string;
  /** texts the popup shows as descriptions (marked on 从屏幕读取), recognised by their content-desc */
  descLines: string[];
  /** a close control with neither text nor description, marked on 从屏幕读取: told by its class and bounds */
  closeNode: { class: string; bounds: [number, number, number, number] } | null;
}

/** Which part of the form an OVERLAY_INVALID `details.field` names. */
export function fieldZh(field: unknown): string | null {
  if (typeof field !== 'string') return null;
  if (field.startsWith('signature')) return '弹窗上的文字';
  if (field.startsWith('close')) return '关闭它的按钮';
  if (field.startsWith('name')) return '名称';
  return null;
}

/** The entry to send, or what the form must fix first. */
export function teachingOf(form: TeachForm): { teaching: OverlayTeaching } | { error: string } {
  const name = form.name.trim();
  if (!NAME_RE.test(name)) return { error: '名称只能用英文小写字母、数字和下划线，以字母开头，最多 48 个字符' };
  const texts = form.lines
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const signature: NodeMatcher[] = [
    ...texts.map((text) => ({ text })),
    ...form.descLines.map((desc) => ({ content_desc: desc })),
  ];
  if (signature.length === 0) return { error: '请填写弹窗上的文字（每行一段，须与弹窗上显示的完全一致）' };
  if (signature.length > MAX_SIGNATURE_LINES) return { error: `弹窗上的文字最多 ${MAX_SIGNATURE_LINES} 行` };
  const closeText = form.closeText.trim();
  if (form.closeNode !== null && closeText === '')
    return { teaching: { name, signature, close: { class: form.closeNode.class, bounds: form.closeNode.bounds } } };
  if (closeText === '') return { error: '请填写关闭它的按钮上的文字或描述' };
  const close: NodeMatcher = form.closeBy === 'text' ? { text: closeText } : { content_desc: closeText };
  if (form.closeClass !== '') close.class = form.closeClass;
  return { teaching: { name, signature, close } };
}

function classZh(cls: string | undefined): string {
  if (cls === undefined) return '';
  const known = CLOSE_CLASSES.find((c) => c.value === cls);
  return `（类型：${known ? known.label : '指定类型'}）`;
}

/** One matcher as a sentence part: 文字为「关闭」（类型：图片）. */
export function matcherZh(m: NodeMatcher): string {
  const what =
    m.text !== undefined
      ? `文字为「${m.text}」`
      : m.text_prefix !== undefined
        ? `文字以「${m.text_prefix}」开头`
        : m.content_desc !== undefined
          ? `描述为「${m.content_desc}」`
          : '画面上固定位置、没有文字';
  return `${what}${classZh(m.class)}`;
}

/** What the phone taps, as the operator would name it. */
export function closeTapZh(m: NodeMatcher): string {
  return m.text ?? m.text_prefix ?? m.content_desc ?? '无文字的关闭控件';
}

/** A node read on the phone as the operator sees it in the list: its text, else its description. */
export function nodeZh(node: ScreenNode): string {
  if (node.text !== '') return node.text;
  if (node.content_desc !== '') return `描述：${node.content_desc}`;
  return '没有文字的可点控件';
}

/** 加为弹窗文字: the node's text (or description) joins what the phone must see; nothing when already there. */
export function withSignatureNode(form: TeachForm, node: ScreenNode): Partial<TeachForm> {
  if (node.text !== '') {
    const lines = form.lines.split('\n').map((l) => l.trim());
    if (lines.includes(node.text)) return {};
    return { lines: form.lines.trim() === '' ? node.text : `${form.lines.replace(/\n+$/, '')}\n${node.text}` };
  }
  if (node.content_desc !== '' && !form.descLines.includes(node.content_desc))
    return { descLines: [...form.descLines, node.content_desc] };
  return {};
}

/** 设为关闭按钮: by the node's text or description (its class kept when it is one offered), else by class and bounds. */
export function withCloseNode(node: ScreenNode): Partial<TeachForm> {
  const closeClass = CLOSE_CLASSES.some((c) => c.value === node.class && c.value !== '') ? node.class : '';
  if (node.text !== '') return { closeBy: 'text', closeText: node.text, closeClass, closeNode: null };
  if (node.content_desc !== '')
    return { closeBy: 'content_desc', closeText: node.content_desc, closeClass, closeNode: null };
  return { closeText: '', closeClass, closeNode: { class: node.class, bounds: node.bounds } };
}
