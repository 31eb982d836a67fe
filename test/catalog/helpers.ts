import { sql } from 'kysely';
import type { AdminDb } from '../../admin/db/database';
import type { SkusJson } from '../../domain/collect';
import type { OperatorClient } from '../harness';

export function xlsxForm(bytes: Buffer, filename = 'export.xlsx'): FormData {
  const form = new FormData();
  form.append(
    'file',
    new Blob([new Uint8Array(bytes)], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
    filename,
  );
  return form;
}

export function upload(client: OperatorClient, bytes: Buffer) {
  return client.post('/api/shopee/imports', xlsxForm(bytes));
}

/** Every row of every table (sessions aside: a request refreshes its own session). */
export async function dumpDb(db: AdminDb): Promise<string> {
  const tables = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables.rows) {
    if (name === 'sessions') continue;
    out[name] = (await sql<Record<string, unknown>>`select * from ${sql.table(name)} order by 1`.execute(db)).rows;
  }
  return JSON.stringify(out);
}

export function skusJson(
  goodsId: string,
  skus: Array<{ color: string; size: string; price_cent: number | null; available?: boolean }>,
  extra: Partial<SkusJson> = {},
): SkusJson {
  return {
    schema_version: 1,
    goods_id: goodsId,
    title: `PDD 商品 ${goodsId}`,
    shop_name: '测试旗舰店',
    price_granularity: 'color',
    captured_at: '2026-08-07T08:00:00Z',
    dimensions: [
      { key: 'color', name: '颜色分类' },
      { key: 'size', name: '尺码' },
    ],
    skus: skus.map((s, i) => ({
      options: { color: s.color, size: s.size },
      price_cent: s.price_cent,
      raw_price: s.price_cent === null ? null : `¥${(s.price_cent / 100).toFixed(2)}`,
      available: s.available ?? true,
      price_observed_at: i === 0 ? { color: s.color, size: s.size } : ({} as Record<string, string>),
    })),
    ...extra,
  };
}
