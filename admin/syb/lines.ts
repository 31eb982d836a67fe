import {
  hasControlCharacter,
  maskControlCharacters,
  SYB_LIMITS,
  taipeiLocalToUtc,
  twdYuanToCent,
} from '../../domain/syb';
import type { ProjectedDetail, ProjectedLine, Scalar } from './answer-parser';

/** One order line as the admin keeps it: no recipient data, price in TWD cents. */
export interface SybLine {
  syb_id: string;
  /** the 顺运宝 order number (the shipment's outer `code`) */
  syb_order_no: string;
  shopee_goods_id: string;
  title: string | null;
  product_spec: string | null;
  /** 0 when SYB sent none, zero, a negative or a non-integer count (then `data_problem` says so) */
  quantity: number;
  price_twd_cent: number | null;
  image_url: string | null;
  /** UTC, from the shipment's Taipei `created` (the sync's start when that is not a real time) */
  created_at: string;
  /** the known fields only, each bounded (docs/syb-protocol.md "Limits") */
  syb_data: Record<string, unknown>;
  /** Chinese, why the line cannot be bought from; null for a usable line */
  data_problem: string | null;
}

export interface ReadShipment {
  lines: SybLine[];
  /** what was refused or dropped, for the log (English, with the shipment id) */
  refusals: string[];
  /** lines SYB sent beyond `linesPerShipment`, not stored */
  linesOverLimit: number;
}

const DIGITS = /^\d+$/;

/** A hostile value quoted in a Chinese problem text: short, no control characters. */
function shown(v: Scalar): string {
  if (v === undefined) return '无';
  if (typeof v === 'object' && v !== null) return v.unsupported;
  const text = typeof v === 'string' ? JSON.stringify(v) : String(v);
  return maskControlCharacters(text).slice(0, 40) + (text.length > 40 ? '…' : '');
}

function text(v: Scalar, max: number, name: string, problems: string[], required: boolean): string | null {
  if (v === undefined || v === null) {
    if (required) problems.push(`缺少${name}`);
    return null;
  }
  if (typeof v !== 'string') {
    problems.push(`${name}不是文本（${shown(v)}）`);
    return null;
  }
  if (v.length > max) {
    problems.push(`${name}超过 ${max} 个字符`);
    return v.slice(0, max);
  }
  if (required && v.trim() === '') problems.push(`缺少${name}`);
  return v;
}

/** http(s) only: a `javascript:` or `data:` image address is dropped, never shown. */
function imageUrl(v: Scalar, refusals: string[], where: string): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'string' && v.length <= SYB_LIMITS.imageUrlChars && !hasControlCharacter(v)) {
    try {
      const url = new URL(v);
      if ((url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '')
        return url.href;
    } catch {
      // dropped below
    }
  }
  refusals.push(`${where}: image URL dropped (not a plain http/https address)`);
  return null;
}

function readLine(
  raw: ProjectedLine,
  index: number,
  shipment: { id: string; sybOrderNo: string; createdAt: string; problems: string[] },
  refusals: string[],
): SybLine {
  const problems = [...shipment.problems];
  const where = `shipment ${shipment.id} line ${index + 1}`;
  if (raw.unsupported !== undefined) {
    problems.push(`明细格式无法识别（${raw.unsupported}）`);
  }
  const id =
    typeof raw.id === 'string' &&
    raw.id.trim() !== '' &&
    raw.id.length <= SYB_LIMITS.idChars &&
    /^[\x21-\x7e]+$/.test(raw.id)
      ? raw.id
      : null;
  if (id === null && raw.unsupported === undefined) problems.push(`明细编号无效（${shown(raw.id)}）`);
  const productId =
    typeof raw.productId === 'string' && DIGITS.test(raw.productId) && raw.productId.length <= SYB_LIMITS.productIdChars
      ? raw.productId
      : null;
  if (productId === null && raw.unsupported === undefined)
    problems.push(
      raw.productId === undefined || raw.productId === null
        ? '缺少商品编号'
        : `商品编号无效（${shown(raw.productId)}）`,
    );
  const title = raw.unsupported ? null : text(raw.title, SYB_LIMITS.titleChars, '标题', problems, false);
  const spec = raw.unsupported ? null : text(raw.spec, SYB_LIMITS.specChars, '规格', problems, false);
  const q = raw.quantity;
  const quantity = typeof q === 'number' && Number.isSafeInteger(q) && q > 0 && q <= 1_000_000 ? q : 0;
  if (quantity === 0 && raw.unsupported === undefined)
    problems.push(q === undefined || q === null ? '缺少数量' : `数量无效（${shown(q)}）`);
  let price: number | null = null;
  if (raw.unsupported === undefined) {
    if (raw.price === undefined || raw.price === null || raw.price === '') problems.push('缺少价格');
    else if (typeof raw.price !== 'string' || (price = twdYuanToCent(raw.price)) === null)
      problems.push(`价格不是十进制金额（${shown(raw.price)}）`);
  }
  const image = raw.unsupported ? null : imageUrl(raw.imageUrl, refusals, where);
  const problem = problems.length === 0 ? null : [...new Set(problems)].join('；').slice(0, 500);
  if (problem !== null) refusals.push(`${where}: stored as invalid (${problems.length} problem(s))`);
  const bounded = (v: Scalar) => (typeof v === 'object' && v !== null ? null : v);
  return {
    // A line without a usable id still gets a stable one, so it is stored (and shown) once.
    syb_id: id ?? `${shipment.id}#${index + 1}`,
    syb_order_no: shipment.sybOrderNo,
    shopee_goods_id: productId ?? '',
    title,
    product_spec: spec,
    quantity,
    price_twd_cent: problem === null ? price : null,
    image_url: image,
    created_at: shipment.createdAt,
    syb_data: {
      schema_version: 2,
      detail: raw.unsupported
        ? { unsupported: raw.unsupported }
        : {
            id: bounded(raw.id) ?? null,
            productId: bounded(raw.productId) ?? null,
            title,
            spec,
            quantity: bounded(raw.quantity) ?? null,
            price: bounded(raw.price) ?? null,
            imageUrl: image,
          },
    },
    data_problem: problem,
  };
}

/**
 * A shipment's lines from its projected detail answer: every line is kept — a line the adapter
 * cannot use carries `data_problem` and can never become a purchase, but it never stops the
 * other lines or the sync. `fallbackCreatedAt` dates lines whose shipment time is not a real one.
 */
export function readShipment(shipmentId: string, detail: ProjectedDetail, fallbackCreatedAt: string): ReadShipment {
  const refusals: string[] = [];
  const problems: string[] = [];
  const sybOrderNo =
    typeof detail.code === 'string' && detail.code.trim() !== '' && detail.code.length <= SYB_LIMITS.idChars
      ? detail.code
      : '';
  if (sybOrderNo === '') problems.push(`货运单号无效（${shown(detail.code)}）`);
  const createdAt = typeof detail.created === 'string' ? taipeiLocalToUtc(detail.created) : null;
  if (createdAt === null) problems.push(`创建时间无效（${shown(detail.created)}）`);
  if (problems.length > 0) refusals.push(`shipment ${shipmentId}: ${problems.length} shipment field(s) unusable`);
  const shipment = { id: shipmentId, sybOrderNo, createdAt: createdAt ?? fallbackCreatedAt, problems };
  const raw = detail.details ?? [];
  const linesOverLimit = Math.max(0, (detail.lineCount ?? 0) - SYB_LIMITS.linesPerShipment);
  if (linesOverLimit > 0)
    refusals.push(
      `shipment ${shipmentId}: ${detail.lineCount} lines, only the first ${SYB_LIMITS.linesPerShipment} are stored`,
    );
  const lines = raw.map((l, i) => readLine(l, i, shipment, refusals));
  const outer = {
    id: shipmentId,
    code: sybOrderNo || null,
    orderCode: typeof detail.orderCode === 'string' ? detail.orderCode : null,
    created: typeof detail.created === 'string' ? detail.created : null,
  };
  for (const line of lines) line.syb_data = { ...line.syb_data, shipment: outer };
  // Two lines with the same id in one answer: the later one would silently replace the first.
  const seen = new Set<string>();
  for (const [i, line] of lines.entries()) {
    if (!seen.has(line.syb_id)) {
      seen.add(line.syb_id);
      continue;
    }
    line.syb_id = `${shipmentId}#${i + 1}`;
    line.data_problem = (line.data_problem ? `${line.data_problem}；` : '') + '明细编号重复';
    line.price_twd_cent = null;
    refusals.push(`shipment ${shipmentId} line ${i + 1}: duplicate line id`);
  }
  return { lines, refusals, linesOverLimit };
}
