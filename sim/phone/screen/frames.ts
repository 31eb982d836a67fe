import jpeg from 'jpeg-js';
import type { Phone } from '../phone';
import type { UiNode } from '../app/node';
import { renderRaw } from '../app/render-png';
import { renderXml } from '../app/render-xml';

/** `screencap`'s raw header: width, height, pixel format, each a little-endian u32. */
const RAW_HEADER_BYTES = 12;

/** The tree on the display now (the lock screen or a dark display instead of the app), as screencap draws it. */
export function screenTree(phone: Phone): UiNode {
  return phone.systemTree() ?? phone.app.visibleTree();
}

/**
 * Area-averaged scaling of RGBA pixels (`raw`: screencap's raw format) to w×h: every source pixel
 * counts, so thin text strokes stay visible at half size, where dropping pixels would lose them.
 */
export function scaleRgba(raw: Buffer, w: number, h: number): Buffer {
  const sw = raw.readUInt32LE(0);
  const sh = raw.readUInt32LE(4);
  if (w > sw || h > sh) return nearest(raw, sw, sh, w, h);
  const dst = Buffer.alloc(w * h * 4);
  const sum = new Float64Array(w * 4);
  const counts = new Float64Array(w);
  const colOf = new Uint32Array(sw);
  for (let x = 0; x < sw; x++) colOf[x] = Math.min(w - 1, Math.floor((x * w) / sw));
  let sy = 0;
  for (let dy = 0; dy < h; dy++) {
    const yEnd = dy === h - 1 ? sh : Math.max(sy + 1, Math.floor(((dy + 1) * sh) / h));
    sum.fill(0);
    counts.fill(0);
    for (; sy < yEnd; sy++) {
      let s = RAW_HEADER_BYTES + sy * sw * 4;
      for (let x = 0; x < sw; x++, s += 4) {
        const dx = colOf[x] as number;
        const o = dx * 4;
        sum[o] = (sum[o] as number) + (raw[s] as number);
        sum[o + 1] = (sum[o + 1] as number) + (raw[s + 1] as number);
        sum[o + 2] = (sum[o + 2] as number) + (raw[s + 2] as number);
        counts[dx] = (counts[dx] as number) + 1;
      }
    }
    let d = dy * w * 4;
    for (let dx = 0; dx < w; dx++, d += 4) {
      const n = (counts[dx] as number) || 1;
      dst[d] = Math.round((sum[dx * 4] as number) / n);
      dst[d + 1] = Math.round((sum[dx * 4 + 1] as number) / n);
      dst[d + 2] = Math.round((sum[dx * 4 + 2] as number) / n);
      dst[d + 3] = 255;
    }
  }
  return dst;
}

/** A projection larger than the display (never asked in practice): each pixel from its nearest source. */
function nearest(raw: Buffer, sw: number, sh: number, w: number, h: number): Buffer {
  const dst = Buffer.alloc(w * h * 4);
  for (let dy = 0; dy < h; dy++) {
    const sy = Math.min(sh - 1, Math.floor((dy * sh) / h));
    for (let dx = 0; dx < w; dx++) {
      const s = RAW_HEADER_BYTES + (sy * sw + Math.min(sw - 1, Math.floor((dx * sw) / w))) * 4;
      raw.copy(dst, (dy * w + dx) * 4, s, s + 4);
    }
  }
  return dst;
}

/**
 * The phone's screen as JPEG frames of one size and quality. A frame is drawn and encoded only
 * when the screen changed since the last one (the tree's dump text is the screen's identity);
 * otherwise the same JPEG is handed out again, which costs nothing.
 */
export class ScreenFrames {
  private key: string | null = null;
  private jpeg: Buffer | null = null;
  /** how long the last draw and encode took, in ms (for the simulator's own measurements) */
  lastEncodeMs = 0;

  constructor(
    private readonly phone: Phone,
    readonly width: number,
    readonly height: number,
    private readonly quality: number,
  ) {}

  /** The current frame, and whether it differs from the one handed out before. */
  frame(): { jpeg: Buffer; changed: boolean } {
    const tree = screenTree(this.phone);
    const key = renderXml(tree);
    if (this.jpeg && key === this.key) return { jpeg: this.jpeg, changed: false };
    const started = Date.now();
    const data = scaleRgba(renderRaw(tree), this.width, this.height);
    this.jpeg = jpeg.encode({ width: this.width, height: this.height, data }, this.quality).data;
    this.key = key;
    this.lastEncodeMs = Date.now() - started;
    return { jpeg: this.jpeg, changed: true };
  }
}
