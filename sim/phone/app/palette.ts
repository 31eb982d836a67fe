import type { UiNode } from './node';

export type RGB = readonly [number, number, number];

/** How a screencap paints a node; shared by the font renderer and the bitmap fallback so both show the same screen. */
export const PALETTE = {
  background: [255, 255, 255],
  fills: {
    red: [228, 57, 60],
    grey: [200, 200, 200],
    mask: [90, 90, 90],
    image: [222, 230, 240],
    chip: [242, 242, 242],
    chip_selected: [255, 228, 228],
    card: [255, 255, 255],
    green: [7, 193, 96],
    black: [0, 0, 0],
  } satisfies Record<NonNullable<UiNode['fill']>, RGB>,
  clickableBorder: [120, 120, 120],
  disabledBorder: [210, 210, 210],
  /** a faint outline for text and images that are not controls */
  outline: [225, 225, 225],
  selectedBorder: [228, 57, 60],
  text: [30, 30, 30],
  disabledText: [170, 170, 170],
  textOnRed: [255, 255, 255],
} as const;

export const BORDER_PX = { clickable: 2, outline: 1, selected: 4 } as const;

/** Text on a red button (its own fill or an ancestor's) is white, as on PDD's 提交订单. */
export function textColour(n: UiNode, onRed: boolean): RGB {
  if (onRed || n.fill === 'red') return PALETTE.textOnRed;
  return n.enabled ? PALETTE.text : PALETTE.disabledText;
}

/** Pre-order walk (parents before children, so children paint on top) that knows whether a red fill is behind the node. */
export function walkPainted(root: UiNode, fn: (n: UiNode, onRed: boolean) => void, onRed = false): void {
  fn(root, onRed);
  const red = onRed || root.fill === 'red';
  for (const c of root.children) walkPainted(c, fn, red);
}
