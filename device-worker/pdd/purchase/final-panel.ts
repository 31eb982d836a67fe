import { yuanToCent } from '../../../domain/money';
import { DeviceError } from '../../errors';
import type { PddProfile } from '../profile';
import { isQuantityRow, summaryNode } from '../panel-view';
import { centre, descendants, reaches, type UiDump, type UiNode } from '../ui-xml';
import type { PurchaseProfile } from './profile';

export interface Stepper {
  node: UiNode;
  enabled: boolean;
  point: { x: number; y: number; node: UiNode };
}

/** The spec panel's scrolled option list, found from its summary row (../panel-view.ts). */
function optionList(dump: UiDump, p: PddProfile): UiNode | null {
  const panel = summaryNode(dump, p)[0]?.parent;
  const scroll = panel?.children.find((c) => c.scrollable);
  return scroll?.children[0] ?? null;
}

/** `+` or `-` of the quantity row, when the row is in view; exactly one of each or none. */
export function readStepper(dump: UiDump, p: PddProfile, pp: PurchaseProfile, which: 'plus' | 'minus'): Stepper | null {
  const rows = optionList(dump, p)?.children.filter((c) => isQuantityRow(c, p)) ?? [];
  if (rows.length > 1) throw new DeviceError('PAGE_UNRECOGNIZED', 'the spec panel shows two quantity rows');
  const row = rows[0];
  if (!row) return null;
  const label = which === 'plus' ? pp.text.plus : pp.text.minus;
  const found = row.children.filter((c) => c.text === label);
  if (found.length > 1) throw new DeviceError('PAGE_UNRECOGNIZED', `the quantity ${which} occurs more than once`);
  const node = found[0];
  if (!node) return null;
  if (dump.nodes.filter((n) => n.text === label && isQuantityRow(n.parent ?? n, p)).length !== 1)
    throw new DeviceError('PAGE_UNRECOGNIZED', `the quantity ${which} occurs more than once`);
  if (!node.clickable || node.children.length !== 0)
    throw new DeviceError('PAGE_UNRECOGNIZED', `the quantity ${which} is not a clickable leaf`);
  const point = centre(node.bounds);
  if (!reaches(dump, point, node))
    throw new DeviceError('PAGE_UNRECOGNIZED', `a tap on the quantity ${which} would land on something drawn over it`);
  return { node, enabled: node.enabled, point: { ...point, node } };
}

export interface SubmitControl {
  amountCent: number;
  raw: string;
  /** the centre of the text and the control it means; the hit test proves nothing covers it */
  point: { x: number; y: number; node: UiNode };
}

const SUBMIT_RE = /^(\S+) ¥(\d+\.\d{2})$/;

/**
 * Gate 3's control (提交控件唯一): exactly one node on screen whose text begins with
 * `提交订单`, reading exactly `提交订单 ¥<amount>`, an enabled text leaf whose nearest clickable
 * ancestor is the last row of the spec panel, holds no other text, and is what a tap at the text's
 * centre reaches. A second such text anywhere → SUBMIT_CONTROL_NOT_UNIQUE; an unreadable amount →
 * GATE3_MISMATCH.
 */
export function readSubmitControl(dump: UiDump, p: PddProfile, pp: PurchaseProfile): SubmitControl {
  const label = pp.text.submitLabel;
  const hits = dump.nodes.filter((n) => n.text.startsWith(label) || n.contentDesc.startsWith(label));
  if (hits.length !== 1 || !hits[0])
    throw new DeviceError(
      'SUBMIT_CONTROL_NOT_UNIQUE',
      `found ${hits.length} "${label}" controls on the final panel, expected exactly one`,
      {},
      { kind: 'submit_control_count', label, count: hits.length },
    );
  const text = hits[0];
  const m = SUBMIT_RE.exec(text.text);
  if (!m || m[1] !== label || m[2] === undefined)
    throw new DeviceError(
      'GATE3_MISMATCH',
      `the submit control reads ${JSON.stringify(text.text)}, not "${label} ¥<amount>"`,
      {},
      { kind: 'submit_control_shape', label, shown: text.text },
    );
  const amountCent = yuanToCent(m[2]);
  if (amountCent === null || amountCent <= 0)
    throw new DeviceError(
      'GATE3_MISMATCH',
      `the submit amount ${m[2]} is not readable`,
      {},
      { kind: 'unreadable', reading: 'submit_amount', shown: m[2] },
    );
  if (text.className !== p.cls.textView || text.children.length !== 0)
    throw new DeviceError('SUBMIT_CONTROL_NOT_UNIQUE', 'the submit text is not a text leaf');
  let parent = text.parent;
  while (parent && !parent.clickable) parent = parent.parent;
  const panel = summaryNode(dump, p)[0]?.parent;
  if (!parent || !panel || parent.parent !== panel || panel.children[panel.children.length - 1] !== parent)
    throw new DeviceError('SUBMIT_CONTROL_NOT_UNIQUE', 'the submit text is not in the last row of the spec panel');
  if (!parent.enabled || !text.enabled)
    throw new DeviceError(
      'SUBMIT_CONTROL_NOT_UNIQUE',
      'the submit control is disabled',
      {},
      { kind: 'submit_control_disabled' },
    );
  const inside = descendants(parent).filter((n) => n.text.length > 0);
  if (inside.length !== 1 || inside[0] !== text)
    throw new DeviceError('SUBMIT_CONTROL_NOT_UNIQUE', 'the submit container holds other texts');
  const point = centre(text.bounds);
  if (!reaches(dump, point, parent))
    throw new DeviceError(
      'SUBMIT_CONTROL_NOT_UNIQUE',
      'a tap on the submit text would land on something drawn over it',
    );
  return { amountCent, raw: text.text, point: { ...point, node: parent } };
}
