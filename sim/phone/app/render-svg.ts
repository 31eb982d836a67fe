import fs from 'node:fs';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import type { UiNode } from './node';
import { BORDER_PX, PALETTE, textColour, walkPainted, type RGB } from './palette';
import { SCREEN_H, SCREEN_W } from './screens/common';

/** Debian's fonts-noto-cjk; `npm start` and `npm test` install it as root when missing (ensureCjkFont in scripts/bootstrap.mjs, which names the same file). */
export const CJK_FONT_FILE = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
export const CJK_FONT_PACKAGE = 'fonts-noto-cjk';
/** The simplified-Chinese face of the collection: PDD's shapes for 黑色, 提交订单, … */
const CJK_FONT_FAMILY = 'Noto Sans CJK SC';

/** RGBA, 8 bits a channel, opaque, rows top to bottom. */
export interface Pixels {
  width: number;
  height: number;
  rgba: Buffer;
}

export interface CjkRasteriser {
  rasterise(root: UiNode): Pixels;
}

const rgb = (c: RGB): string => `rgb(${c[0]},${c[1]},${c[2]})`;

/** XML 1.0 forbids control characters and lone surrogates; a goods title from the control API may carry them. */
function xmlText(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Ideographs and full-width forms take a whole em; Latin, digits and ¥ a little over half. */
function ems(text: string): number {
  let w = 0;
  for (const ch of text) w += (ch.codePointAt(0) ?? 0) >= 0x2e80 ? 1 : 0.6;
  return w;
}

const TEXT_PAD = 8;
const MAX_FONT_PX = 44;
const MIN_FONT_PX = 10;

/** A border drawn inside the node's bounds, as the bitmap renderer does, so neighbouring chips do not overlap. */
function border(n: UiNode, c: RGB, w: number): string {
  const [l, t, r, b] = n.bounds;
  if (r - l <= w || b - t <= w) return '';
  return `<rect x="${l + w / 2}" y="${t + w / 2}" width="${r - l - w}" height="${b - t - w}" fill="none" stroke="${rgb(c)}" stroke-width="${w}"/>`;
}

/** One line of text, laid out at the origin: the anchor point on the baseline. */
interface TextRun {
  text: string;
  size: number;
  centred: boolean;
  colour: RGB;
}

/** Outlines for each run (SVG path markup, drawn at the origin), in the order asked. */
type ShapeText = (runs: readonly TextRun[]) => string[];

/**
 * One line of text inside its node: as large as the row allows, shrunk until it fits the width,
 * centred on buttons, chips and red bars, left-aligned otherwise. The nested <svg> clips whatever
 * still overflows to the node, like a TextView with ellipsis off.
 */
function placeText(n: UiNode, c: RGB, onRed: boolean): { run: TextRun; open: string; close: string } {
  const [l, t, r, b] = n.bounds;
  const w = r - l;
  const h = b - t;
  const fitted = Math.floor((w - 2 * TEXT_PAD) / Math.max(1, ems(n.text)));
  const size = Math.max(MIN_FONT_PX, Math.min(MAX_FONT_PX, Math.round(h * 0.6), fitted));
  const centred = n.clickable || n.fill !== undefined || onRed;
  // The CJK em box runs from 0.88 em above the baseline to 0.12 em below: its middle is 0.38 em up.
  const baseline = Math.round(h / 2 + size * 0.38);
  const x = centred ? w / 2 : TEXT_PAD;
  return {
    run: { text: n.text, size, centred, colour: c },
    open: `<svg x="${l}" y="${t}" width="${w}" height="${h}"><g transform="translate(${x} ${baseline})">`,
    close: '</g></svg>',
  };
}

function textElement(run: TextRun): string {
  const anchor = run.centred ? ' text-anchor="middle"' : '';
  return `<text x="0" y="0" font-size="${run.size}" fill="${rgb(run.colour)}"${anchor} xml:space="preserve">${xmlText(run.text)}</text>`;
}

const svgOpen = (w: number, h: number): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="${CJK_FONT_FAMILY}">`;

/** The screen as SVG: the same fills and borders as the bitmap renderer, and text as outlines from `shape`. */
function screenSvg(root: UiNode, shape: ShapeText): string {
  const parts: string[] = [
    svgOpen(SCREEN_W, SCREEN_H),
    `<rect width="${SCREEN_W}" height="${SCREEN_H}" fill="${rgb(PALETTE.background)}"/>`,
  ];
  const runs: TextRun[] = [];
  const slots: number[] = [];
  walkPainted(root, (n, onRed) => {
    const [l, t, r, b] = n.bounds;
    if (n.fill)
      parts.push(`<rect x="${l}" y="${t}" width="${r - l}" height="${b - t}" fill="${rgb(PALETTE.fills[n.fill])}"/>`);
    if (n.clickable)
      parts.push(border(n, n.enabled ? PALETTE.clickableBorder : PALETTE.disabledBorder, BORDER_PX.clickable));
    else if (n.text || n.cls.endsWith('ImageView')) parts.push(border(n, PALETTE.outline, BORDER_PX.outline));
    if (n.selected) parts.push(border(n, PALETTE.selectedBorder, BORDER_PX.selected));
    if (n.text.trim()) {
      const { run, open, close } = placeText(n, textColour(n, onRed), onRed);
      runs.push(run);
      parts.push(open);
      slots.push(parts.length);
      parts.push('', close);
    }
  });
  const outlines = shape(runs);
  slots.forEach((slot, i) => {
    parts[slot] = outlines[i] ?? '';
  });
  parts.push('</svg>');
  return parts.join('');
}

/**
 * resvg-js 2.6 shares no font database between renders and reads the whole font collection again
 * for every <text> it lays out (tens of milliseconds each). So text is turned into outlines once
 * per distinct run — all new runs of a screencap in one pass — and kept; the screen itself is then
 * rasterised from paths alone, without loading any font.
 */
class TextOutlines {
  private readonly cache = new Map<string, string>();
  private static readonly MAX_RUNS = 5000;
  constructor(private readonly fontOptions: ResvgRenderOptions) {}

  readonly shape: ShapeText = (runs) => {
    const key = (r: TextRun): string => `${r.size}|${r.centred ? 'm' : 's'}|${r.colour.join(',')}|${r.text}`;
    const missing = [...new Map(runs.filter((r) => !this.cache.has(key(r))).map((r) => [key(r), r])).values()];
    if (missing.length > 0) {
      if (this.cache.size + missing.length > TextOutlines.MAX_RUNS) this.cache.clear();
      const svg = svgOpen(1, 1) + missing.map((r, i) => `<g id="t${i}">${textElement(r)}</g>`).join('') + '</svg>';
      const groups = outlinedGroups(new Resvg(svg, this.fontOptions).toString());
      missing.forEach((r, i) => this.cache.set(key(r), groups.get(`t${i}`) ?? ''));
    }
    return runs.map((r) => this.cache.get(key(r)) ?? '');
  };
}

/** The content of each top-level `<g id=…>` in resvg's own serialisation of a tree whose text became paths. */
function outlinedGroups(svg: string): Map<string, string> {
  const out = new Map<string, string>();
  const pieces = svg.replace(/<\/svg>\s*$/, '').split(/<g id="([^"]+)">/);
  for (let i = 1; i + 1 < pieces.length; i += 2) {
    const body = pieces[i + 1] ?? '';
    const end = body.lastIndexOf('</g>');
    out.set(pieces[i] ?? '', end >= 0 ? body.slice(0, end) : body);
  }
  return out;
}

const PATHS_ONLY: ResvgRenderOptions = {
  font: { loadSystemFonts: false },
  background: rgb(PALETTE.background),
  fitTo: { mode: 'original' },
  logLevel: 'off',
};

function fontOptions(fontFile: string): ResvgRenderOptions {
  return {
    font: {
      loadSystemFonts: false,
      fontFiles: [fontFile],
      defaultFontFamily: CJK_FONT_FAMILY,
      sansSerifFamily: CJK_FONT_FAMILY,
    },
    logLevel: 'off',
  };
}

function rasterisePaths(svg: string): Pixels {
  const img = new Resvg(svg, PATHS_ONLY).render();
  return { width: img.width, height: img.height, rgba: img.pixels };
}

/**
 * Two different ideographs must come out as two different pictures: a file that is missing,
 * unreadable, not a font, or a font without Chinese glyphs (every one the same box) fails here
 * once, instead of leaving blank or boxed text in every evidence screenshot.
 */
function drawsChinese(outlines: TextOutlines): boolean {
  const [a, b] = outlines.shape(['拼', '多'].map((text) => ({ text, size: 40, centred: false, colour: PALETTE.text })));
  const picture = (paths: string | undefined): Buffer =>
    rasterisePaths(`${svgOpen(48, 48)}<g transform="translate(0 40)">${paths ?? ''}</g></svg>`).rgba;
  const inked = (px: Buffer): boolean => px.some((v, i) => i % 4 !== 3 && v < 128);
  const left = picture(a);
  const right = picture(b);
  return inked(left) && inked(right) && !left.equals(right);
}

/** The rasteriser for a CJK font file, or why it cannot be used. */
export function openCjkRasteriser(fontFile: string = CJK_FONT_FILE): CjkRasteriser | { unavailable: string } {
  if (!fs.existsSync(fontFile)) return { unavailable: `no CJK font at ${fontFile}` };
  const outlines = new TextOutlines(fontOptions(fontFile));
  try {
    if (!drawsChinese(outlines)) return { unavailable: `${fontFile} does not draw Chinese characters` };
  } catch (e) {
    return { unavailable: `${fontFile} cannot be used: ${e instanceof Error ? e.message : String(e)}` };
  }
  return { rasterise: (root) => rasterisePaths(screenSvg(root, outlines.shape)) };
}
