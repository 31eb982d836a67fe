/**
 * Shopee 商品規格 text → colour / size / advice (docs/architecture.md §5.2).
 *
 *   `黑色,M【建議40-50公斤】`      → 黑色 / M / 40-50公斤
 *   `卡其色拼黑色,L 建議50-57.5kg` → 卡其色拼黑色 / L / 50-57.5kg
 *   `黑色,M`                       → 黑色 / M / (no advice)
 *
 * Anything else is a failure: no guessing. The caller keeps `spec_raw`, stores colour and
 * size empty with parse_ok = 0, and reports the row so an operator completes it by hand.
 */
export type ParsedSpec =
  { ok: true; color: string; size: string; advice: string | null } | { ok: false; reason: string };

const BRACKET_ADVICE = /^(.*?)【\s*建[議议]\s*([^【】]*?)\s*】$/u;
const PLAIN_ADVICE = /^(.*?)\s*建[議议]\s*(.*)$/u;

export function parseShopeeSpec(raw: string): ParsedSpec {
  const text = raw.trim();
  if (text === '') return { ok: false, reason: '规格为空' };
  const comma = text.indexOf(',');
  if (comma === -1) return { ok: false, reason: '规格里没有逗号，无法分出颜色和尺码' };
  const color = text.slice(0, comma).trim();
  const rest = text.slice(comma + 1).trim();
  if (rest.includes(',')) return { ok: false, reason: '规格里有多个逗号' };
  if (color === '') return { ok: false, reason: '颜色为空' };

  let size = rest;
  let advice: string | null = null;
  const bracket = BRACKET_ADVICE.exec(rest);
  if (bracket) {
    size = (bracket[1] ?? '').trim();
    advice = (bracket[2] ?? '').trim();
  } else if (rest.includes('【') || rest.includes('】')) {
    return { ok: false, reason: '规格里的【】不是【建議…】格式' };
  } else {
    const plain = PLAIN_ADVICE.exec(rest);
    if (plain) {
      size = (plain[1] ?? '').trim();
      advice = (plain[2] ?? '').trim();
    }
  }
  if (advice !== null && advice === '') return { ok: false, reason: '建議后面没有内容' };
  if (size === '') return { ok: false, reason: '尺码为空' };
  if (/建[議议]/u.test(size)) return { ok: false, reason: '尺码里有多处建議' };
  return { ok: true, color, size, advice };
}
