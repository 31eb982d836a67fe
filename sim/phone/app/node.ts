const PDD_PKG = 'com.xunmeng.pinduoduo';

export type Rect = readonly [number, number, number, number];

/** What a tap on a clickable node means to the app model (never rendered). */
export type TapAction =
  | { kind: 'back' }
  | { kind: 'none' }
  | { kind: 'open_home' }
  | { kind: 'open_panel' }
  | { kind: 'select_option'; dim: number; value: string }
  | { kind: 'qty'; delta: 1 | -1 }
  | { kind: 'submit' }
  | { kind: 'pay'; control: string }
  | { kind: 'order_tab'; type: number }
  /** A control of a challenge page (challenge.ts): the code field, 手机登录, 确定/登录. */
  | { kind: 'challenge'; step: 'focus' | 'phone_login' | 'confirm' };

export interface UiNode {
  cls: string;
  pkg: string;
  text: string;
  id: string;
  desc: string;
  clickable: boolean;
  enabled: boolean;
  selected: boolean;
  scrollable: boolean;
  bounds: Rect;
  children: UiNode[];
  /** Position among the original siblings; survives clipping so index gaps show like on a phone. */
  index: number;
  action?: TapAction;
  /** Key of the model's scroll state this container reflects. */
  scrollKey?: string;
  /** Drawing hint for screencap only. */
  fill?: 'red' | 'grey' | 'mask' | 'image' | 'chip' | 'chip_selected' | 'card' | 'green' | 'black';
  /** What a tap on this node of an overlay does (overlays never use `action`). */
  overlayAction?: string;
  /** Ids a test wrote itself (custom overlays): the generic id style leaves them alone. */
  keepId?: boolean;
}

export interface NodeProps {
  text?: string;
  id?: string;
  desc?: string;
  clickable?: boolean;
  enabled?: boolean;
  selected?: boolean;
  scrollable?: boolean;
  pkg?: string;
  action?: TapAction;
  scrollKey?: string;
  fill?: UiNode['fill'];
  overlayAction?: string;
}

const CLASS: Record<string, string> = {
  Frame: 'android.widget.FrameLayout',
  Linear: 'android.widget.LinearLayout',
  Text: 'android.widget.TextView',
  Image: 'android.widget.ImageView',
  Button: 'android.widget.Button',
  View: 'android.view.View',
  Scroll: 'android.widget.ScrollView',
  Recycler: 'androidx.recyclerview.widget.RecyclerView',
  Progress: 'android.widget.ProgressBar',
  Toast: 'android.widget.Toast',
  ImageButton: 'android.widget.ImageButton',
  ViewGroup: 'android.view.ViewGroup',
  Relative: 'android.widget.RelativeLayout',
  Edit: 'android.widget.EditText',
  CheckBox: 'android.widget.CheckBox',
  Web: 'android.webkit.WebView',
};

export type ShortClass = keyof typeof CLASS;

export function node(cls: ShortClass, bounds: Rect, props: NodeProps = {}, children: UiNode[] = []): UiNode {
  const pkg = props.pkg ?? PDD_PKG;
  return {
    cls: CLASS[cls] ?? cls,
    pkg,
    text: props.text ?? '',
    id: props.id ? (props.id.includes(':') ? props.id : `${pkg}:id/${props.id}`) : '',
    desc: props.desc ?? '',
    clickable: props.clickable ?? false,
    enabled: props.enabled ?? true,
    selected: props.selected ?? false,
    scrollable: props.scrollable ?? false,
    bounds,
    children: children.map((c, i) => ({ ...c, index: i })),
    index: 0,
    ...(props.action ? { action: props.action } : {}),
    ...(props.scrollKey ? { scrollKey: props.scrollKey } : {}),
    ...(props.fill ? { fill: props.fill } : {}),
    ...(props.overlayAction ? { overlayAction: props.overlayAction } : {}),
  };
}

function intersect(a: Rect, b: Rect): Rect | null {
  const l = Math.max(a[0], b[0]);
  const t = Math.max(a[1], b[1]);
  const r = Math.min(a[2], b[2]);
  const bt = Math.min(a[3], b[3]);
  return l < r && t < bt ? [l, t, r, bt] : null;
}

/**
 * uiautomator reports visible bounds and skips what is entirely off screen, so the model lays
 * out scroll content at full size and this pass cuts it down to what a phone would report.
 */
export function clipTree(n: UiNode, clip: Rect = [0, 0, 1080, 2376]): UiNode | null {
  const visible = intersect(n.bounds, clip);
  if (!visible) return null;
  const childClip = n.scrollable ? visible : clip;
  const children: UiNode[] = [];
  for (const c of n.children) {
    const cc = clipTree(c, childClip);
    if (cc) children.push(cc);
  }
  return { ...n, bounds: visible, children };
}

function contains(b: Rect, x: number, y: number): boolean {
  return x >= b[0] && x < b[2] && y >= b[1] && y < b[3];
}

/** Deepest node under the point, and the deepest clickable one (what Android dispatches to). */
export function hitTest(root: UiNode, x: number, y: number): { deepest: UiNode | null; clickable: UiNode | null } {
  let deepest: UiNode | null = null;
  let clickable: UiNode | null = null;
  const walk = (n: UiNode): void => {
    if (!contains(n.bounds, x, y)) return;
    deepest = n;
    if (n.clickable) clickable = n;
    // Later siblings are drawn on top, so they win.
    for (const c of n.children) walk(c);
  };
  walk(root);
  return { deepest, clickable };
}

export function findNode(root: UiNode, pred: (n: UiNode) => boolean): UiNode | null {
  if (pred(root)) return root;
  for (const c of root.children) {
    const f = findNode(c, pred);
    if (f) return f;
  }
  return null;
}
