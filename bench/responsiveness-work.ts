import type { Shipment } from '../sim/syb/data';
import { taipeiDay } from '../domain/syb';
import { xlsxForm } from '../test/catalog/helpers';
import { sharedStrings, workbookParts, worksheet, zip } from '../test/security/hostile-xlsx';

/**
 * What the admin works on in bench/responsiveness.ts's rounds, each as an operator or the
 * upstream starts it: an import through the 导入 route, a 顺运宝 sync through its trigger, the
 * upstream's data through the simulator's control API, the hostile workbook.
 */
export interface AdminSession {
  url: string;
  cookie: string;
  csrf: string;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `POST /api/shopee/imports` as the 导入 page sends it; resolves to its status and code. */
export async function postImport(a: AdminSession, bytes: Buffer, signal: AbortSignal): Promise<string> {
  const res = await fetch(`${a.url}/api/shopee/imports`, {
    method: 'POST',
    headers: { cookie: a.cookie, 'x-csrf-token': a.csrf },
    body: xlsxForm(bytes),
    signal,
  });
  const body = (await res.json().catch(() => ({}))) as {
    code?: string;
    products?: number;
    skus?: number;
    failed_rows?: unknown[];
  };
  return res.status === 200
    ? `200: ${body.products} products, ${body.skus} SKUs, ${body.failed_rows?.length ?? 0} failed rows`
    : `${res.status} ${body.code ?? ''}`.trim();
}

/** `POST /api/syb/sync`, then `GET /api/syb/sync` once a second until that sync has ended. */
export async function runSync(a: AdminSession, signal: AbortSignal): Promise<string> {
  const status = async () => {
    const res = await fetch(`${a.url}/api/syb/sync`, { headers: { cookie: a.cookie }, signal });
    return (await res.json()) as {
      running: boolean;
      last_synced_at: string | null;
      last_error: string | null;
      progress: { pages: number; lines: number };
    };
  };
  const before = await status();
  const res = await fetch(`${a.url}/api/syb/sync`, {
    method: 'POST',
    headers: { cookie: a.cookie, 'x-csrf-token': a.csrf, 'content-type': 'application/json' },
    body: '{}',
    signal,
  });
  if (res.status !== 202) return `POST /api/syb/sync: ${res.status} ${await res.text()}`;
  let seenRunning = false;
  for (;;) {
    await sleep(1_000);
    signal.throwIfAborted();
    const s = await status();
    seenRunning ||= s.running;
    const ended =
      !s.running && (seenRunning || s.last_synced_at !== before.last_synced_at || s.last_error !== before.last_error);
    if (ended)
      return `${s.progress.lines.toLocaleString('en')} lines stored${s.last_error ? `; last_error ${s.last_error.slice(0, 120)}` : ''}`;
  }
}

/** Puts `shipments` × `lines` into the simulator (in batches under its 10 MB control body); returns the lines. */
export async function loadUpstream(sybUrl: string, shipments: number, lines: number): Promise<number> {
  const created = `${taipeiDay(new Date(Date.now() - 86_400_000))} 12:00:00`;
  const title = '春秋款西裝外套男士休閒單西'.repeat(40).slice(0, 500);
  const all: Shipment[] = Array.from({ length: shipments }, (_, s) => ({
    id: `SH-BENCH-${s}`,
    code: `TW-BENCH-${s}`,
    orderCode: `OC-BENCH-${s}`,
    created,
    receiver: { name: '測試收件人', phone: '0900000000', address: '台北市信義區測試路1號' },
    details: Array.from({ length: lines }, (_, l) => ({
      id: `SH-BENCH-${s}-L${l}`,
      productId: String(26813450001 + (l % 4)),
      title,
      spec: `黑色${l % 7},M【建議40-50公斤】`,
      quantity: 1 + (l % 3),
      price: '1280.50',
      imageUrl: `https://cf.shopee.tw/file/bench-${s}-${l}`,
    })),
  }));
  const put = async (method: 'PUT' | 'POST', batch: Shipment[]) => {
    const res = await fetch(`${sybUrl}/control/shipments`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ shipments: batch }),
    });
    if (res.status !== 200) throw new Error(`SYB simulator: ${method} /control/shipments → ${res.status}`);
  };
  const perBatch = Math.max(1, Math.floor(4_000 / Math.max(1, lines)));
  await put('PUT', all.slice(0, perBatch));
  for (let i = perBatch; i < all.length; i += perBatch) await put('POST', all.slice(i, i + perBatch));
  return shipments * lines;
}

/** A valid workbook whose second row is `tags` start tags that never close (a few KiB zipped). */
export function hostileWorkbook(tags: number): Buffer {
  return zip([...workbookParts(), sharedStrings(), worksheet(`<row r="2">${'<c>'.repeat(tags)}</row>`)]);
}
