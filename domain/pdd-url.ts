/**
 * Whatever an operator pastes for a PDD goods (docs/architecture.md §5.2) → its goods_id. Dedupe is by
 * goods_id, never by URL: the same goods has many URL spellings (goods.html, goods2.html,
 * share parameters, the app scheme, a share text with the link inside, percent-encoded
 * links nested in another link).
 */
export type PddUrlParse = { ok: true; goodsId: string } | { ok: false; reason: 'NO_GOODS_ID' | 'AMBIGUOUS_GOODS_ID' };

// `goods_id=` must start a parameter (so `xgoods_id=` is not it); `;` covers `&amp;goods_id=`.
const GOODS_ID_PARAM = /(?:^|[?&#;\s])goods_id=(\d{3,20})(?!\d)/gu;

function decodeLayers(text: string): string[] {
  const layers = [text];
  let current = text;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      next = current.replace(/%3D/giu, '=').replace(/%3F/giu, '?').replace(/%26/giu, '&');
    }
    if (next === current) break;
    layers.push(next);
    current = next;
  }
  return layers;
}

export function parsePddGoodsId(input: string): PddUrlParse {
  const found = new Set<string>();
  for (const layer of decodeLayers(input.trim())) {
    for (const m of layer.matchAll(GOODS_ID_PARAM)) {
      if (m[1] !== undefined) found.add(m[1]);
    }
  }
  if (found.size === 0) return { ok: false, reason: 'NO_GOODS_ID' };
  if (found.size > 1) return { ok: false, reason: 'AMBIGUOUS_GOODS_ID' };
  return { ok: true, goodsId: [...found][0] as string };
}

/** The one URL a phone opens for a goods, whatever was pasted. */
export function canonicalPddGoodsUrl(goodsId: string): string {
  return `https://mobile.yangkeduo.com/goods.html?goods_id=${goodsId}`;
}
