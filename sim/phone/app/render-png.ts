import zlib from 'node:zlib';
import { glyph } from './font';
import type { UiNode } from './node';
import { BORDER_PX, PALETTE, textColour, walkPainted, type RGB } from './palette';
import { CJK_FONT_FILE, CJK_FONT_PACKAGE, openCjkRasteriser, type CjkRasteriser, type Pixels } from './render-svg';
import { SCREEN_H, SCREEN_W } from './screens/common';

const SCALE = 4;

/** RGB rows, each prefixed with PNG filter byte 0, so encoding is one deflate call. */
class Canvas {
  readonly data: Buffer;
  readonly stride: number;
  constructor(
    readonly w: number,
    readonly h: number,
  ) {
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
  /** resvg's opaque RGBA, dropping alpha: the screencap stays 8-bit RGB whichever renderer drew it. */
  static fromPixels(p: Pixels): Canvas {
    const cv = new Canvas(p.width, p.height);
    const { rgba } = p;
    for (let y = 0; y < p.height; y++) {
      let s = y * p.width * 4;
      let d = y * cv.stride + 1;
      const end = d + p.width * 3;
      while (d < end) {
        cv.data[d++] = rgba[s++] as number;
        cv.data[d++] = rgba[s++] as number;
        cv.data[d++] = rgba[s++] as number;
        s++;
      }
    }
    return cv;
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

/** The fallback when no CJK font can be used: the 5×8 bitmap font, Chinese as boxes. */
function paint(root: UiNode): Canvas {
  const cv = new Canvas(SCREEN_W, SCREEN_H);
  walkPainted(root, (n, onRed) => {
    const [l, t, r, b] = n.bounds;
    if (n.fill) cv.rect(l, t, r, b, PALETTE.fills[n.fill]);
    if (n.clickable)
      cv.frame(l, t, r, b, n.enabled ? PALETTE.clickableBorder : PALETTE.disabledBorder, BORDER_PX.clickable);
    else if (n.text || n.cls.endsWith('ImageView')) cv.frame(l, t, r, b, PALETTE.outline, BORDER_PX.outline);
    if (n.selected) cv.frame(l, t, r, b, PALETTE.selectedBorder, BORDER_PX.selected);
    if (n.text) drawText(cv, n, textColour(n, onRed));
  });
  return cv;
}

function encodePng(cv: Canvas): Buffer {
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
function encodeRaw(cv: Canvas): Buffer {
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

export interface ScreenRenderer {
  /** false when no CJK font could be used and Chinese characters come out as boxes */
  readonly legibleChinese: boolean;
  png(root: UiNode): Buffer;
  raw(root: UiNode): Buffer;
}

export interface ScreenRendererOptions {
  fontFile?: string;
  warn?: (message: string) => void;
}

/**
 * Screencaps with Chinese text an operator can read, through the CJK font; without a usable font
 * the bitmap font keeps every screencap valid, and one warning says what to install. A render the
 * font path cannot finish falls back the same way: a screencap never fails because of text.
 */
export function createScreenRenderer(opts: ScreenRendererOptions = {}): ScreenRenderer {
  const fontFile = opts.fontFile ?? CJK_FONT_FILE;
  const warn = opts.warn ?? ((m: string) => console.warn(m));
  const fallback = ` — screencaps draw Chinese text as boxes; install the Debian package ${CJK_FONT_PACKAGE} (npm start does as root)`;
  const opened = openCjkRasteriser(fontFile);
  const font: CjkRasteriser | null = 'unavailable' in opened ? null : opened;
  if ('unavailable' in opened) warn(`phone simulator: ${opened.unavailable}${fallback}`);
  let warnedFailure = false;
  const draw = (root: UiNode): Canvas => {
    if (font) {
      try {
        return Canvas.fromPixels(font.rasterise(root));
      } catch (e) {
        if (!warnedFailure)
          warn(
            `phone simulator: a screencap could not be drawn with ${fontFile} (${e instanceof Error ? e.message : String(e)})${fallback}`,
          );
        warnedFailure = true;
      }
    }
    return paint(root);
  };
  return {
    legibleChinese: font !== null,
    png: (root) => encodePng(draw(root)),
    raw: (root) => encodeRaw(draw(root)),
  };
}

let shared: ScreenRenderer | null = null;
/** Opened on the first screencap, so a simulator that never takes one never reads the font. */
function screen(): ScreenRenderer {
  shared ??= createScreenRenderer();
  return shared;
}

export function renderPng(root: UiNode): Buffer {
  return screen().png(root);
}

/** `screencap` without -p. */
export function renderRaw(root: UiNode): Buffer {
  return screen().raw(root);
}
