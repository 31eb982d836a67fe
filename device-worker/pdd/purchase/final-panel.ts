import { yuanToCent } from '../../../domain/money';
import { DeviceError } from '../../errors';
import type { PddProfile } from '../profile';
import { allById, optionalById } from '../match';
import { centre, descendants, type UiDump, type UiNode } from '../ui-xml';
import { hitTarget } from './guard';
import type { PurchaseProfile } from './profile';

export interface Stepper {
  node: UiNode;
  enabled: boolean;
  point: { x: number; y: number };
}

/** `+` or `-` of the quantity row, when the row is in view; exactly one of each or none. */
export function readStepper(dump: UiDump, p: PddProfile, pp: PurchaseProfile, which: 'plus' | 'minus'): Stepper | null {
  const row = optionalById(dump.nodes, p.id.skuQuantity, 'spec panel');
  if (!row) return null;
  const node = optionalById(descendants(row), which === 'plus' ? pp.id.skuPlus : pp.id.skuMinus, 'quantity row');
  if (!node) return null;
  if (allById(dump.nodes, node.resourceId).length !== 1)
    throw new DeviceError('PAGE_UNRECOGNIZED', `the quantity ${which} occurs more than once`);
  if (!node.clickable || node.children.length !== 0)
    throw new DeviceError('PAGE_UNRECOGNIZED', `the quantity ${which} is not a clickable leaf`);
  const point = centre(node.bounds);
  if (hitTarget(dump, point.x, point.y) !== node)
    throw new DeviceError('PAGE_UNRECOGNIZED', `a tap on the quantity ${which} would land elsewhere`);
  return { node, enabled: node.enabled, point };
}

export interface SubmitControl {
  amountCent: number;
  raw: string;
  /** the centre of the text; the hit test proves it lands on the control's own clickable parent */
  point: { x: number; y: number };
}

const SUBMIT_RE = /^(\S+) ¥(\d+\.\d{2})$/;

/**
 * Gate 3's control (提交控件唯一): exactly one node on screen whose text begins with
 * `提交订单`, reading exactly `提交订单 ¥<amount>`, enabled, whose nearest clickable ancestor is the
 * profiled container, holds no other text, and is what a tap at the text's centre hits. A second
 * such text anywhere → SUBMIT_CONTROL_NOT_UNIQUE; an unreadable amount → GATE3_MISMATCH.
 */
export function readSubmitControl(dump: UiDump, p: PddProfile, pp: PurchaseProfile): SubmitControl {
  const label = pp.text.submitLabel;
  const hits = dump.nodes.filter((n) => n.text.startsWith(label) || n.contentDesc.startsWith(label));
  if (hits.length !== 1 || !hits[0])
    throw new DeviceError(
      'SUBMIT_CONTROL_NOT_UNIQUE',
      `found ${hits.length} "${label}" controls on the final panel, expected exactly one`,
    );
  const text = hits[0];
  const m = SUBMIT_RE.exec(text.text);
  if (!m || m[1] !== label || m[2] === undefined)
    throw new DeviceError(
      'GATE3_MISMATCH',
      `the submit control reads ${JSON.stringify(text.text)}, not "${label} ¥<amount>"`,
    );
  const amountCent = yuanToCent(m[2]);
  if (amountCent === null || amountCent <= 0)
    throw new DeviceError('GATE3_MISMATCH', `the submit amount ${m[2]} is not readable`);
  if (text.resourceId !== pp.id.skuConfirmText || text.children.length !== 0)
    throw new DeviceError('SUBMIT_CONTROL_NOT_UNIQUE', 'the submit text is not the profiled text leaf');
  let parent = text.parent;
  while (parent && !parent.clickable) parent = parent.parent;
  if (!parent || parent.resourceId !== p.id.skuConfirm)
    throw new DeviceError('SUBMIT_CONTROL_NOT_UNIQUE', 'the submit text has no profiled clickable parent');
  if (allById(dump.nodes, parent.resourceId).length !== 1)
    throw new DeviceError('SUBMIT_CONTROL_NOT_UNIQUE', 'the submit container occurs more than once');
  if (!parent.enabled || !text.enabled)
    throw new DeviceError('SUBMIT_CONTROL_NOT_UNIQUE', 'the submit control is disabled');
  const inside = descendants(parent).filter((n) => n.text.length > 0);
  if (inside.length !== 1 || inside[0] !== text)
    throw new DeviceError('SUBMIT_CONTROL_NOT_UNIQUE', 'the submit container holds other texts');
  const point = centre(text.bounds);
  if (hitTarget(dump, point.x, point.y) !== parent)
    throw new DeviceError('SUBMIT_CONTROL_NOT_UNIQUE', 'a tap on the submit text would not land on its own container');
  return { amountCent, raw: text.text, point };
}
