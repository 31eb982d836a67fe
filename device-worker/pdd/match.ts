import { DeviceError } from '../errors';
import type { UiNode } from './ui-xml';

/**
 * Exact, unique equality — the only way a profile finds a node. No contains, no prefix, no
 * "first of several": a second match means the page is not the one we profiled.
 */
export function allById(nodes: readonly UiNode[], resourceId: string): UiNode[] {
  return nodes.filter((n) => n.resourceId === resourceId);
}

export function uniqueById(nodes: readonly UiNode[], resourceId: string, what: string): UiNode {
  const found = allById(nodes, resourceId);
  if (found.length !== 1 || !found[0])
    throw structure(`${what}: expected exactly one ${resourceId}, found ${found.length}`);
  return found[0];
}

export function optionalById(nodes: readonly UiNode[], resourceId: string, what: string): UiNode | null {
  const found = allById(nodes, resourceId);
  if (found.length > 1) throw structure(`${what}: ${resourceId} occurs ${found.length} times`);
  return found[0] ?? null;
}

export function structure(message: string): DeviceError {
  return new DeviceError('PAGE_STRUCTURE_CHANGED', message);
}

export function expectNode(ok: boolean, message: string): void {
  if (!ok) throw structure(message);
}
