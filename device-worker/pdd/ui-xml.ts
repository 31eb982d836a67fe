import { XMLParser } from 'fast-xml-parser';
import { DeviceError } from '../errors';

export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** One uiautomator node, attributes read by name (their order differs between Android builds). */
export interface UiNode {
  text: string;
  resourceId: string;
  className: string;
  packageName: string;
  contentDesc: string;
  clickable: boolean;
  enabled: boolean;
  selected: boolean;
  scrollable: boolean;
  bounds: Bounds;
  /** position in document order (= drawing order: a later node is drawn over an earlier one) */
  order: number;
  children: UiNode[];
  parent: UiNode | null;
  /** every attribute as dumped, including ones a newer Android adds (`hint`, `NAF`) */
  attrs: Readonly<Record<string, string>>;
}

export interface UiDump {
  root: UiNode;
  /** the XML as dumped: kept for artifacts and for recognising a stale (repeated) dump */
  xml: string;
  /** depth-first, document order */
  nodes: readonly UiNode[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  preserveOrder: true,
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
});

type Ordered = Record<string, unknown>;

const BOUNDS_RE = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/;

function parseBounds(value: string | undefined): Bounds {
  const m = BOUNDS_RE.exec(value ?? '');
  if (!m) throw new DeviceError('PAGE_UNRECOGNIZED', `node bounds ${JSON.stringify(value)} are not [l,t][r,b]`);
  return { left: Number(m[1]), top: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]) };
}

function attributesOf(entry: Ordered): Record<string, string> {
  const raw = entry[':@'];
  const out: Record<string, string> = {};
  if (raw && typeof raw === 'object') {
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) out[k] = typeof v === 'string' ? v : String(v);
  }
  return out;
}

function childrenOf(entry: Ordered, tag: string): Ordered[] {
  const c = entry[tag];
  return Array.isArray(c) ? (c as Ordered[]) : [];
}

/**
 * The element's name, or null for what is not an element (text, a processing instruction).
 * `uiautomator dump` names every element `node`; the UiAutomator2 server's page source names it
 * by its class (`android.widget.TextView`), so any element is a node.
 */
function tagOf(entry: Ordered): string | null {
  const tag = Object.keys(entry).find((k) => k !== ':@');
  return tag === undefined || tag.startsWith('#') || tag.startsWith('?') ? null : tag;
}

function elementsUnder(entry: Ordered, tag: string): { entry: Ordered; tag: string }[] {
  const out: { entry: Ordered; tag: string }[] = [];
  for (const child of childrenOf(entry, tag)) {
    const t = tagOf(child);
    if (t !== null) out.push({ entry: child, tag: t });
  }
  return out;
}

function build(entry: Ordered, tag: string, parent: UiNode | null, out: UiNode[]): UiNode {
  const a = attributesOf(entry);
  const node: UiNode = {
    text: a['text'] ?? '',
    resourceId: a['resource-id'] ?? '',
    // the page source's element name is the class (made a valid XML name): the attribute is exact
    className: a['class'] ?? (tag === 'node' ? '' : tag),
    packageName: a['package'] ?? '',
    contentDesc: a['content-desc'] ?? '',
    clickable: a['clickable'] === 'true',
    enabled: a['enabled'] === 'true',
    selected: a['selected'] === 'true',
    scrollable: a['scrollable'] === 'true',
    bounds: parseBounds(a['bounds']),
    order: out.length,
    children: [],
    parent,
    attrs: a,
  };
  out.push(node);
  for (const child of elementsUnder(entry, tag)) node.children.push(build(child.entry, child.tag, node, out));
  return node;
}

/**
 * Parses one `uiautomator dump` or one UiAutomator2 page source (`GET /session/:id/source`): the
 * same screen gives the same nodes in the same order either way. Anything that is not a
 * `hierarchy` with one root element is refused.
 */
const TOAST = 'android.widget.Toast';

export function parseUiDump(xml: string): UiDump {
  let doc: Ordered[];
  try {
    doc = parser.parse(xml) as Ordered[];
  } catch (err) {
    throw new DeviceError('PAGE_UNRECOGNIZED', `the UI dump is not XML: ${(err as Error).message}`);
  }
  const hierarchy = doc.find((e) => 'hierarchy' in e);
  // The agent adds a recent toast beside the window; a dump never shows it (it is another window
  // that takes no touch), so it is left out and the same screen reads the same on both channels.
  const roots = (hierarchy ? elementsUnder(hierarchy, 'hierarchy') : []).filter(
    (r) => !(r.tag === TOAST && elementsUnder(r.entry, r.tag).length === 0),
  );
  if (roots.length !== 1 || !roots[0])
    throw new DeviceError('PAGE_UNRECOGNIZED', `the UI dump has ${roots.length} root nodes, expected 1`);
  const nodes: UiNode[] = [];
  const root = build(roots[0].entry, roots[0].tag, null, nodes);
  return { root, xml, nodes };
}

export function centre(b: Bounds): { x: number; y: number } {
  return { x: Math.floor((b.left + b.right) / 2), y: Math.floor((b.top + b.bottom) / 2) };
}

export function contains(outer: Bounds, inner: Bounds): boolean {
  return (
    inner.left >= outer.left && inner.top >= outer.top && inner.right <= outer.right && inner.bottom <= outer.bottom
  );
}

/** Descendants of `node` in document order (not the node itself). */
export function descendants(node: UiNode): UiNode[] {
  const out: UiNode[] = [];
  const walk = (n: UiNode) => {
    for (const c of n.children) {
      out.push(c);
      walk(c);
    }
  };
  walk(node);
  return out;
}

function holds(b: Bounds, x: number, y: number): boolean {
  return x >= b.left && x < b.right && y >= b.top && y < b.bottom;
}

/**
 * The node Android dispatches a touch at (x, y) to first: the topmost one in drawing order whose
 * bounds hold the point (right/bottom exclusive). Drawing order is document order — a later
 * sibling's subtree is drawn over an earlier one, a child over its parent — so it is the LAST node
 * in the dump that holds the point, whatever its depth or clickability: a dialog's mask drawn over
 * the page takes the touch even where the page has a deeper clickable node.
 */
export function topmostAt(dump: UiDump, x: number, y: number): UiNode | null {
  for (let i = dump.nodes.length - 1; i >= 0; i--) {
    const n = dump.nodes[i] as UiNode;
    if (holds(n.bounds, x, y)) return n;
  }
  return null;
}

/** `node` is `ancestor` or lies inside it. */
export function within(node: UiNode, ancestor: UiNode): boolean {
  for (let n: UiNode | null = node; n; n = n.parent) if (n === ancestor) return true;
  return false;
}

/** A tap at `point` reaches `node`: nothing drawn above it there. */
export function reaches(dump: UiDump, point: { x: number; y: number }, node: UiNode): boolean {
  const top = topmostAt(dump, point.x, point.y);
  return top !== null && within(top, node);
}

/** The last node of `node`'s subtree in document order. */
export function lastOf(node: UiNode): UiNode {
  let n = node;
  while (n.children.length > 0) n = n.children[n.children.length - 1] as UiNode;
  return n;
}

/** A node named by its place in a dump, so it can be found again in another parse of the same XML. */
export interface NodeRef {
  order: number;
  className: string;
  bounds: Bounds;
}

/** The node of `dump` that `ref` names, or null when that dump has no such node there. */
export function resolveRef(dump: UiDump, ref: NodeRef): UiNode | null {
  const n = dump.nodes[ref.order];
  const a = n?.bounds;
  const b = ref.bounds;
  if (!n || !a || n.className !== ref.className) return null;
  return a.left === b.left && a.top === b.top && a.right === b.right && a.bottom === b.bottom ? n : null;
}
