import { DeviceError } from '../errors';
import type { NodeMatcher } from './profile';
import { centre, reaches, type UiDump, type UiNode } from './ui-xml';

/**
 * Exact equality on what the real app shows — text, content-desc, class — never on a resource id
 * (the real app names most nodes `…:id/pdd` or nothing). No contains and no "first of several":
 * where a reader needs one node, a second match means the page is not the one we profiled.
 */
function matches(n: UiNode, m: NodeMatcher): boolean {
  const textless = m.text === undefined && m.text_prefix === undefined && m.content_desc === undefined;
  const b = m.bounds;
  return (
    // a control named by class and bounds only has no text and no content-desc at all
    (!textless || (n.text === '' && n.contentDesc === '')) &&
    (b === undefined ||
      (n.bounds.left === b[0] && n.bounds.top === b[1] && n.bounds.right === b[2] && n.bounds.bottom === b[3])) &&
    (m.text === undefined || n.text === m.text) &&
    (m.text_prefix === undefined || n.text.startsWith(m.text_prefix)) &&
    (m.content_desc === undefined || n.contentDesc === m.content_desc) &&
    (m.class === undefined || n.className === m.class)
  );
}

export function allMatching(nodes: readonly UiNode[], m: NodeMatcher): UiNode[] {
  return nodes.filter((n) => matches(n, m));
}

export function byText(nodes: readonly UiNode[], text: string): UiNode[] {
  return nodes.filter((n) => n.text === text);
}

/** The node's centre is not covered by anything drawn above it. */
export function uncovered(dump: UiDump, n: UiNode): boolean {
  if (n.bounds.right <= n.bounds.left || n.bounds.bottom <= n.bounds.top) return false;
  return reaches(dump, centre(n.bounds), n);
}

export function structure(message: string): DeviceError {
  return new DeviceError('PAGE_STRUCTURE_CHANGED', message);
}

export function expectNode(ok: boolean, message: string): void {
  if (!ok) throw structure(message);
}
