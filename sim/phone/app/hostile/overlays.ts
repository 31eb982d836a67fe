import { hitTest, type UiNode } from '../node';
import type { CustomOverlay, Moment, OverlayAction, OverlaySpec } from './schema';
import { buildTemplate } from './templates';

const PDD_PKG = 'com.xunmeng.pinduoduo';

interface OverlayState {
  spec: OverlaySpec;
  /** How many times it has appeared so far (each appearance counts towards `times`). */
  shown: number;
  /** Dumps of its moment seen since it last appeared or went away. */
  seen: number;
  /** The page (model object) it is drawn over while up; null while not up. */
  on: object | null;
}

export interface OverlayLayer {
  label: string;
  state: OverlayState;
  tree: UiNode;
}

export interface OverlayHit {
  layer: OverlayLayer;
  action: OverlayAction;
  deepest: UiNode | null;
  target: UiNode | null;
}

const label = (s: OverlaySpec): string => ('template' in s ? s.template : s.id);

function customTree(o: CustomOverlay): UiNode {
  const base = { pkg: PDD_PKG, enabled: true, selected: false, scrollable: false, keepId: true, index: 0 };
  return {
    ...base,
    cls: 'android.widget.FrameLayout',
    text: '',
    id: '',
    desc: '',
    clickable: false,
    bounds: o.bounds,
    fill: 'card',
    children: o.nodes.map((n, i) => ({
      ...base,
      cls: n.class,
      text: n.text,
      id: n.resource_id,
      desc: n.content_desc,
      clickable: n.clickable,
      bounds: n.bounds,
      children: [],
      index: i,
      overlayAction: n.action,
      ...(n.clickable ? { fill: 'chip' as const } : {}),
    })),
  };
}

function contains(n: UiNode, x: number, y: number): boolean {
  const [l, t, r, b] = n.bounds;
  return x >= l && x < r && y >= t && y < b;
}

/** One phone's overlays (sim/phone/SCREENS.md "The hostile world"): when each appears, what covers what. */
export class OverlayBook {
  private items: OverlayState[] = [];

  set(specs: OverlaySpec[]): void {
    this.items = specs.map((spec) => ({ spec, shown: 0, seen: 0, on: null }));
  }

  view(top: object): object[] {
    return this.items.map((s) => ({ ...s.spec, shown: s.shown, visible: s.on === top }));
  }

  /** One fresh dump of a settled screen: overlays due at one of `active` moments come up on `top`. */
  onDump(active: ReadonlySet<Moment>, top: object, onStack: (page: object) => boolean): void {
    for (const s of this.items) {
      // A page that was left for good (popped) takes its dialog with it; a re-open counts anew.
      if (s.on && !onStack(s.on)) s.on = null;
      if (s.on || s.shown >= s.spec.times || !active.has(s.spec.when)) continue;
      if (s.seen >= s.spec.after_dumps) {
        s.on = top;
        s.shown += 1;
        s.seen = 0;
      } else {
        s.seen += 1;
      }
    }
  }

  /** The overlays drawn over `top`, bottom first (later ones are drawn above earlier ones). */
  layers(top: object): OverlayLayer[] {
    return this.items
      .filter((s) => s.on === top)
      .map((s) => ({
        label: label(s.spec),
        state: s,
        tree: 'template' in s.spec ? buildTemplate(s.spec.template) : customTree(s.spec),
      }));
  }

  /** A tap inside an overlay's bounds belongs to the topmost such overlay, never to the page below. */
  hit(layers: OverlayLayer[], x: number, y: number): OverlayHit | null {
    for (const layer of [...layers].reverse()) {
      if (!contains(layer.tree, x, y)) continue;
      const { deepest, clickable } = hitTest(layer.tree, x, y);
      const action: OverlayAction =
        clickable && clickable.enabled ? ((clickable.overlayAction as OverlayAction | undefined) ?? 'none') : 'none';
      return { layer, action, deepest, target: clickable };
    }
    return null;
  }

  /** The overlay goes away (dismissed, or the app left for another page). */
  takeDown(state: OverlayState): void {
    state.on = null;
    state.seen = 0;
  }
}
