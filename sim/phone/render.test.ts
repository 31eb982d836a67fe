import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { decodeFully, inspectHeader } from '../../admin/evidence/png';
import { clipTree, findNode, node, type UiNode } from './app/node';
import { makePricing } from './app/pricing';
import { createScreenRenderer, type ScreenRenderer } from './app/render-png';
import { CJK_FONT_FILE, CJK_FONT_PACKAGE } from './app/render-svg';
import { panelScreen } from './app/screens/panel';
import { SCREEN_H, SCREEN_W } from './app/screens/common';
import { defaultCatalog } from './catalog/default-catalog';

const goods = defaultCatalog().goods.find((g) => g.goods_id === '937122477375')!;
const pricing = makePricing(goods.goods_id, new Map());
const panel = (sel: (string | null)[]): UiNode =>
  clipTree(panelScreen(goods, { sel, qty: 1, scroll: 'top' }, pricing, false))!;

const byText = (root: UiNode, text: string): UiNode => {
  const n = findNode(root, (x) => x.text === text);
  if (!n) throw new Error(`no node with text ${text}`);
  return n;
};

/** The pixels inside a node, a few px in from its edge so its border does not count. */
function region(png: Buffer, n: UiNode): Buffer {
  const img = PNG.sync.read(png);
  const [l, t, r, b] = n.bounds;
  const inset = 6;
  const rows: Buffer[] = [];
  for (let y = t + inset; y < b - inset; y++)
    rows.push(img.data.subarray((y * img.width + l + inset) * 4, (y * img.width + r - inset) * 4));
  return Buffer.concat(rows);
}

function withoutText(root: UiNode, text: string): UiNode {
  return {
    ...root,
    text: root.text === text ? '' : root.text,
    children: root.children.map((c) => withoutText(c, text)),
  };
}

let renderer: ScreenRenderer;
const warnings: string[] = [];
beforeAll(() => {
  renderer = createScreenRenderer({ warn: (m) => warnings.push(m) });
});

describe('screencaps with the CJK font', () => {
  test(`${CJK_FONT_FILE} is installed and used (npm start / npm test install ${CJK_FONT_PACKAGE})`, () => {
    expect(warnings).toEqual([]);
    expect(renderer.legibleChinese).toBe(true);
  });

  test('a goods panel with 黑色 selected is an 8-bit RGB PNG of the screen size that the evidence store accepts', async () => {
    const png = renderer.png(panel(['黑色', null]));
    const header = inspectHeader(png);
    expect(header).toEqual({ width: SCREEN_W, height: SCREEN_H, bitDepth: 8, colorType: 2 });
    await expect(decodeFully(png, header)).resolves.toBeUndefined();
    const img = PNG.sync.read(png);
    expect([img.width, img.height]).toEqual([1080, 2376]);
  });

  test('the selected colour label is drawn: its chip differs from the same chip without the text', () => {
    const tree = panel(['黑色', null]);
    const chip = byText(tree, '黑色');
    expect(chip.selected).toBe(true);
    const withLabel = region(renderer.png(tree), chip);
    const blank = region(renderer.png(withoutText(tree, '黑色')), chip);
    expect(withLabel.equals(blank)).toBe(false);
  });

  test('two different Chinese labels in identical chips render differently (the bitmap font drew both as the same boxes)', () => {
    const tree = panel([null, null]);
    const black = byText(tree, '黑色');
    const white = byText(tree, '白色');
    expect(black.bounds[2] - black.bounds[0]).toBe(white.bounds[2] - white.bounds[0]);
    const png = renderer.png(tree);
    expect(region(png, black).equals(region(png, white))).toBe(false);

    // The same comparison cannot tell them apart without the font: this is what the test guards.
    const bitmap = createScreenRenderer({
      fontFile: path.join(os.tmpdir(), 'no-such-font.ttc'),
      warn: () => undefined,
    });
    const boxes = bitmap.png(tree);
    expect(region(boxes, black).equals(region(boxes, white))).toBe(true);
  });

  test('raw screencap (no -p) carries the same pixels as the PNG', () => {
    const tree = panel(['白色', 'M']);
    const raw = renderer.raw(tree);
    expect([raw.readUInt32LE(0), raw.readUInt32LE(4), raw.readUInt32LE(8)]).toEqual([SCREEN_W, SCREEN_H, 1]);
    expect(raw.length).toBe(12 + SCREEN_W * SCREEN_H * 4);
    expect(raw.subarray(12).equals(PNG.sync.read(renderer.png(tree)).data)).toBe(true);
  });

  test('text that is not valid XML (control characters, lone surrogates, markup) still renders, without falling back', () => {
    const seen: string[] = [];
    const r = createScreenRenderer({ warn: (m) => seen.push(m) });
    const hostile = node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
      node('Text', [36, 100, 1044, 200], { text: '黑色\u0000\u0007<b>&amp;"\'</b>\uD800 ]]>' }),
      node('Text', [36, 300, 1044, 400], { text: '   ' }),
      node('Text', [36, 500, 100, 540], { text: '一个很长很长很长很长很长很长很长很长的商品标题' }),
    ]);
    const png = r.png(hostile);
    expect(PNG.sync.read(png).width).toBe(SCREEN_W);
    expect(seen).toEqual([]);
  });
});

describe('without a usable CJK font', () => {
  test('a missing font file: the bitmap renderer, one warning naming the Debian package, valid screencaps', () => {
    const seen: string[] = [];
    const missing = path.join(os.tmpdir(), 'cmautobuy-missing-font.ttc');
    const r = createScreenRenderer({ fontFile: missing, warn: (m) => seen.push(m) });
    expect(r.legibleChinese).toBe(false);
    const png = r.png(panel(['黑色', null]));
    r.png(panel(['白色', null]));
    expect(inspectHeader(png)).toEqual({ width: SCREEN_W, height: SCREEN_H, bitDepth: 8, colorType: 2 });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain(missing);
    expect(seen[0]).toContain(CJK_FONT_PACKAGE);
  });

  test('a file that is not a font is refused the same way instead of drawing blank text', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cmautobuy-font-'));
    try {
      const bogus = path.join(dir, 'NotoSansCJK-Regular.ttc');
      fs.writeFileSync(bogus, 'not a font at all\n');
      const seen: string[] = [];
      const r = createScreenRenderer({ fontFile: bogus, warn: (m) => seen.push(m) });
      expect(r.legibleChinese).toBe(false);
      expect(PNG.sync.read(r.png(panel(['黑色', null]))).height).toBe(SCREEN_H);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toContain(CJK_FONT_PACKAGE);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
