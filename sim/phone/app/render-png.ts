import zlib from 'node:zlib';
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

/** RGB rows, each prefixed with PNG filter byte 0, so encoding is one deflate call. */
class Canvas {
  readonly data: Buffer;
  readonly stride: number;
  constructor(readonly w: number, readonly h: number) {
    this.stride = w * 3 + 1;
    this.data = Buffer.alloc(this.stride * h, 255);
    for (let y = 0; y < h; y++) this.data[y * this.stride] = 0;
  }
  rect(l: number, t: number, r: number, b: number, c: RGB): void {
    const x0 = Math.max(0, l);
    const x1 = Math.min(this.w, r);
    const y0 = Math.max(0, t);
    const y1 = Math.min(this.h, b);
    if (x0 >= x1 || y0 >= y1) return;
    // Fill one row, then copy it: per-pixel writes over 2.5 M pixels are too slow under jest.
    const row = Buffer.alloc((x1 - x0) * 3);
    for (let i = 0; i < row.length; i += 3) {
      row[i] = c[0];
      row[i + 1] = c[1];
      row[i + 2] = c[2];
    }
    for (let y = y0; y < y1; y++) row.copy(this.data, y * this.stride + 1 + x0 * 3);
  }
  frame(l: number, t: number, r: number, b: number, c: RGB, w = 2): void {
    this.rect(l, t, r, t + w, c);
    this.rect(l, b - w, r, b, c);
    this.rect(l, t, l + w, b, c);
    this.rect(r - w, t, r, b, c);
  }
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = (CRC_TABLE[(c ^ (buf[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
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
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(cv.w, 0);
  ihdr.writeUInt32BE(cv.h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(cv.data, { level: 3 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** `screencap` without -p: width, height, format (RGBA_8888 = 1) little-endian, then pixels. */
export function renderRaw(root: UiNode): Buffer {
  const cv = paint(root);
  const head = Buffer.alloc(12);
  head.writeUInt32LE(cv.w, 0);
  head.writeUInt32LE(cv.h, 4);
  head.writeUInt32LE(1, 8);
  const px = Buffer.alloc(cv.w * cv.h * 4, 255);
  for (let y = 0; y < cv.h; y++) {
    for (let x = 0; x < cv.w; x++) {
      const s = y * cv.stride + 1 + x * 3;
      const d = (y * cv.w + x) * 4;
      px[d] = cv.data[s] as number;
      px[d + 1] = cv.data[s + 1] as number;
      px[d + 2] = cv.data[s + 2] as number;
    }
  }
  return Buffer.concat([head, px]);
}
