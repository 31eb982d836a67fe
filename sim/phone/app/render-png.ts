import { PNG } from 'pngjs';
import { glyph } from './font';
import { walkNodes, type UiNode } from './node';
import { SCREEN_H, SCREEN_W } from './screens/common';

type RGB = readonly [number, number, number];

const WHITE: RGB = [255, 255, 255];
const FILLS: Record<NonNullable<UiNode['fill']>, RGB> = {
  red: [228, 57, 60],
  grey: [200, 200, 200],
  mask: [90, 90, 90],
  image: [222, 230, 240],
  chip: [242, 242, 242],
  chip_selected: [255, 228, 228],
};

const SCALE = 4;

class Canvas {
  readonly data: Buffer;
  constructor(readonly w: number, readonly h: number) {
    this.data = Buffer.alloc(w * h * 4, 255);
  }
  rect(l: number, t: number, r: number, b: number, c: RGB): void {
    const x0 = Math.max(0, l);
    const x1 = Math.min(this.w, r);
    const y0 = Math.max(0, t);
    const y1 = Math.min(this.h, b);
    for (let y = y0; y < y1; y++) {
      let o = (y * this.w + x0) * 4;
      for (let x = x0; x < x1; x++, o += 4) {
        this.data[o] = c[0];
        this.data[o + 1] = c[1];
        this.data[o + 2] = c[2];
      }
    }
  }
  frame(l: number, t: number, r: number, b: number, c: RGB, w = 2): void {
    this.rect(l, t, r, t + w, c);
    this.rect(l, b - w, r, b, c);
    this.rect(l, t, l + w, b, c);
    this.rect(r - w, t, r, b, c);
  }
}

/** Text clipped to its node: ASCII from the bitmap font, any other character as a box. */
function drawText(cv: Canvas, n: UiNode, color: RGB): void {
  const [l, t, r, b] = n.bounds;
  let x = l + 8;
  const y = t + Math.max(4, Math.floor((b - t - 8 * SCALE) / 2));
  for (const ch of n.text) {
    const cols = glyph(ch);
    const adv = cols ? 6 * SCALE : 9 * SCALE;
    if (x + adv > r) break;
    if (cols) {
      cols.forEach((bits, cx) => {
        for (let cy = 0; cy < 8; cy++) {
          if (bits & (1 << cy)) {
            const px = x + cx * SCALE;
            const py = y + cy * SCALE;
            if (py + SCALE <= b) cv.rect(px, py, px + SCALE, py + SCALE, color);
          }
        }
      });
    } else if (ch.trim() !== '') {
      cv.frame(x + 2, y, x + 8 * SCALE - 2, Math.min(b, y + 8 * SCALE), color, 3);
    }
    x += adv;
  }
}

function paint(root: UiNode): Canvas {
  const cv = new Canvas(SCREEN_W, SCREEN_H);
  walkNodes(root, (n) => {
    const [l, t, r, b] = n.bounds;
    const fill = n.fill ? FILLS[n.fill] : null;
    if (fill) cv.rect(l, t, r, b, fill);
    if (n.clickable) cv.frame(l, t, r, b, n.enabled ? [120, 120, 120] : [210, 210, 210]);
    else if (n.text || n.cls.endsWith('ImageView')) cv.frame(l, t, r, b, [225, 225, 225], 1);
    if (n.selected) cv.frame(l, t, r, b, [228, 57, 60], 4);
    if (n.text) {
      const onRed = n.fill === 'red' || hasRedAncestorFill(root, n);
      drawText(cv, n, onRed ? WHITE : n.enabled ? [30, 30, 30] : [170, 170, 170]);
    }
  });
  return cv;
}

function hasRedAncestorFill(root: UiNode, target: UiNode): boolean {
  let found = false;
  const walk = (n: UiNode, red: boolean): void => {
    if (n === target) found = red;
    for (const c of n.children) walk(c, red || n.fill === 'red');
  };
  walk(root, false);
  return found;
}

export function renderPng(root: UiNode): Buffer {
  const cv = paint(root);
  const png = new PNG({ width: cv.w, height: cv.h });
  cv.data.copy(png.data);
  return PNG.sync.write(png, { colorType: 2, deflateLevel: 3 });
}

/** `screencap` without -p: width, height, format (RGBA_8888 = 1) little-endian, then pixels. */
export function renderRaw(root: UiNode): Buffer {
  const cv = paint(root);
  const head = Buffer.alloc(12);
  head.writeUInt32LE(cv.w, 0);
  head.writeUInt32LE(cv.h, 4);
  head.writeUInt32LE(1, 8);
  return Buffer.concat([head, cv.data]);
}
