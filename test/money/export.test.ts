import ExcelJS from 'exceljs';
import type { KyselyPlugin } from 'kysely';
import { moneyExport } from '../../admin/money/export';
import type { Logger } from '../../platform/logger';
import { loginOperator, startTestAdmin, type OperatorClient, type TestAdmin } from '../harness';
import { seedDraft, seedLine, seedPurchase } from './seed';

/**
 * The books' export through the API: the xlsx read back with exceljs (numbers, dates and empty
 * cells as cells, not text), the CSV parsed back (BOM, quoting, the formula guard), both with the
 * same figures as `GET /api/money/lines`; and an export that fails or is abandoned half-way.
 */
const DAY = '2026-11-20';
/** 10:00 Taipei on DAY */
const AT = '2026-11-20T02:00:00Z';
const RANGE = `from=${DAY}&to=${DAY}`;

const HEADER = [
  ...['发货日期', '顺运宝单号', '虾皮商品编号', '虾皮规格编号', '商品名称', '规格', '数量', '售价(新台币)', '汇率'],
  ...[
    '售价(人民币)',
    '费用(人民币)',
    '拼多多订单号',
    '成本(人民币)',
    '成本来源',
    '毛利(人民币)',
    '毛利率',
    '状态',
    '付款时间',
  ],
];
const col = (name: string) => HEADER.indexOf(name) + 1;

interface Line {
  syb_id: string;
  syb_order_no: string;
  sale_twd_cent: number | null;
  sale_cny_cent: number | null;
  fees_cny_cent: number | null;
  cost_cny_cent: number | null;
  margin_cny_cent: number | null;
  margin_bp: number | null;
  rate_ppm: number | null;
}

/** RFC 4180: quoted fields with doubled quotes, CRLF between records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted) field += c;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

describe('money export for the books', () => {
  let admin: TestAdmin;
  let op: OperatorClient;
  const download = async (path: string) => {
    const res = await fetch(`${admin.url}${path}`, { headers: { cookie: op.sessionCookie! } });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    admin = await startTestAdmin({ runWorker: false });
    op = await loginOperator(admin);
    // 0.225 CNY per TWD; 2.5 % fee and ¥0.07 a line
    const settings = {
      'money.twd_to_cny_rate_ppm': 225_000,
      'money.platform_fee_bp': 250,
      'money.line_fee_cny_cent': 7,
    };
    expect((await op.request('PUT', '/api/settings', settings)).status).toBe(200);
    // 145.60 TWD → 32.76 CNY; bought for 20.00, paid at 01:05 the next day in Taipei
    await seedLine(admin.db, { sybId: 'X1', createdAt: AT, saleTwdCent: 14_560, quantity: 1 });
    await seedPurchase(admin.db, {
      ...{ taskId: 'task-X1', sybId: 'X1', capCent: 2_500, amountCent: 2_000, deviceId: 'phone-a', at: AT },
      ...{ waitingAt: '2026-11-20T03:00:00Z', paidAt: '2026-11-20T17:05:00Z' },
    });
    // a draft: its cap is the estimate
    await seedLine(admin.db, { sybId: 'X2', createdAt: '2026-11-20T03:00:00Z', saleTwdCent: 10_000, quantity: 2 });
    await seedDraft(admin.db, { taskId: 'task-X2', sybId: 'X2', capCent: 9_999, at: AT });
    // nothing bought, and a title a spreadsheet would run as a formula, with a quote and a comma
    await seedLine(admin.db, {
      sybId: 'X3',
      createdAt: '2026-11-20T04:00:00Z',
      saleTwdCent: null,
      quantity: 1,
      title: '=HYPERLINK("http://x","点我"),外套',
    });
  });
  afterAll(async () => admin?.close());

  const apiLines = async () => {
    const res = await op.get(`/api/money/lines?${RANGE}&limit=500`);
    expect(res.status).toBe(200);
    return new Map((res.body as { items: Line[] }).items.map((l) => [l.syb_order_no, l]));
  };

  it('writes an xlsx of real numbers and dates in 元, a frozen Chinese header, empty cells for unknowns', async () => {
    const { res, bytes } = await download(`/api/money/export.xlsx?${RANGE}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml.sheet');
    const disposition = res.headers.get('content-disposition')!;
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(`cmautobuy-金额-${DAY}-${DAY}.xlsx`)}`);
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+\.xlsx"/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual([undefined, ...HEADER]);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.rowCount).toBe(4);
    // newest shipment first
    const rows = [2, 3, 4].map((r) => ws.getRow(r));
    expect(rows.map((r) => r.getCell(col('顺运宝单号')).value)).toEqual(['TW-X3', 'TW-X2', 'TW-X1']);
    const x1 = rows[2]!;
    const cell = (name: string) => x1.getCell(col(name));
    expect(cell('发货日期').type).toBe(ExcelJS.ValueType.Date);
    expect(cell('发货日期').value).toEqual(new Date(`${DAY}T00:00:00Z`));
    expect(cell('发货日期').numFmt).toBe('yyyy-mm-dd');
    expect(cell('付款时间').value).toEqual(new Date('2026-11-21T01:05:00Z'));
    expect(cell('售价(人民币)')).toMatchObject({ type: ExcelJS.ValueType.Number, value: 32.76, numFmt: '"¥"#,##0.00' });
    expect(cell('售价(新台币)')).toMatchObject({ value: 145.6, numFmt: '"NT$"#,##0.00' });
    expect(cell('汇率')).toMatchObject({ value: 0.225, numFmt: '0.000000' });
    expect(cell('成本(人民币)').value).toBe(20);
    expect(cell('数量')).toMatchObject({ type: ExcelJS.ValueType.Number, value: 1 });
    expect(cell('成本来源').value).toBe('实际');
    expect(cell('状态').value).toBe('已完成');
    expect(cell('拼多多订单号').value).toBe('PDD-task-X1');
    // the same figures as the list, in 元
    const api = await apiLines();
    for (const row of rows) {
      const line = api.get(String(row.getCell(col('顺运宝单号')).value))!;
      const yuan = (cent: number | null) => (cent === null ? null : cent / 100);
      expect([
        row.getCell(col('售价(人民币)')).value,
        row.getCell(col('费用(人民币)')).value,
        row.getCell(col('成本(人民币)')).value,
        row.getCell(col('毛利(人民币)')).value,
        row.getCell(col('毛利率')).value,
      ]).toEqual([
        yuan(line.sale_cny_cent),
        yuan(line.fees_cny_cent),
        yuan(line.cost_cny_cent),
        yuan(line.margin_cny_cent),
        line.margin_bp === null ? null : line.margin_bp / 10_000,
      ]);
    }
    expect(rows[1]!.getCell(col('成本来源')).value).toBe('预估');
    expect(rows[1]!.getCell(col('状态')).value).toBe('草稿');
    // no sale price: no figure, an empty cell, never 0
    const x3 = rows[0]!;
    for (const name of ['售价(新台币)', '售价(人民币)', '毛利(人民币)', '毛利率', '成本(人民币)', '状态', '付款时间'])
      expect({ name, type: x3.getCell(col(name)).type }).toEqual({ name, type: ExcelJS.ValueType.Null });
    // a cell of an xlsx is text, not a formula: stored as it is
    expect(x3.getCell(col('商品名称')).value).toBe('=HYPERLINK("http://x","点我"),外套');
  });

  it('writes a CSV Excel reads: BOM, CRLF, quoting, the formula guard, the same figures', async () => {
    const { res, bytes } = await download(`/api/money/export.csv?${RANGE}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain(encodeURIComponent('金额'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(HEADER);
    expect(rows.map((r) => r[col('顺运宝单号') - 1])).toEqual(['TW-X3', 'TW-X2', 'TW-X1']);
    const field = (row: string[], name: string) => row[col(name) - 1];
    const [x3, x2, x1] = rows as [string[], string[], string[]];
    expect(field(x3, '商品名称')).toBe(`'=HYPERLINK("http://x","点我"),外套`);
    expect(text).toContain(`"'=HYPERLINK(""http://x"",""点我""),外套"`);
    expect(field(x3, '售价(人民币)')).toBe('');
    expect(field(x3, '付款时间')).toBe('');
    expect(field(x1, '发货日期')).toBe(DAY);
    expect(field(x1, '付款时间')).toBe('2026-11-21 01:05:00');
    expect(field(x1, '售价(人民币)')).toBe('32.76');
    expect(field(x1, '售价(新台币)')).toBe('145.60');
    expect(field(x1, '汇率')).toBe('0.225000');
    expect(field(x1, '成本来源')).toBe('实际');
    expect(field(x2, '成本来源')).toBe('预估');
    const api = await apiLines();
    for (const row of [x1, x2]) {
      const line = api.get(field(row, '顺运宝单号')!)!;
      expect(Number(field(row, '毛利(人民币)'))).toBe(line.margin_cny_cent! / 100);
      expect(Number(field(row, '费用(人民币)'))).toBe(line.fees_cny_cent! / 100);
      expect(field(row, '毛利率')).toBe(`${(line.margin_bp! / 100).toFixed(2)}%`);
    }
    // X2 loses money (cap 99.99 against 45.00 sold): a negative number is a number, not guarded text
    expect(field(x2, '毛利(人民币)')).toMatch(/^-\d+\.\d\d$/);
  });

  it('needs the operator session and refuses a range that is not one', async () => {
    const anonymous = await fetch(`${admin.url}/api/money/export.csv?${RANGE}`);
    expect(anonymous.status).toBe(401);
    for (const format of ['xlsx', 'csv']) {
      const res = await op.get(`/api/money/export.${format}?from=2026-03-02&to=2026-03-01`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
  });

  it('cuts a failing export off and logs it; a client that leaves stops it; the admin carries on', async () => {
    // more lines than one read of the stream, so the second read fails after rows were written
    const many = Array.from({ length: 2_100 }, (_, i) => ({
      ...{ syb_id: `M${i}`, syb_order_no: `TW-M${i}`, title: `商品 ${i}`, product_spec: null, shopee_goods_id: '333' },
      ...{ shopee_sku_id: null, quantity: 1, price_twd_cent: 1_000, image_url: null, syb_data: '{}' },
      ...{ created_at: '2026-11-19T02:00:00Z', first_synced_at: AT, updated_at: AT },
    }));
    for (let i = 0; i < many.length; i += 300)
      await admin.db
        .insertInto('syb_orders')
        .values(many.slice(i, i + 300))
        .execute();
    let chunks = 0;
    // the first read of lines passes, the second fails
    const failing: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        const first = args.result.rows[0] as object | undefined;
        if (first && 'margin_bp' in first && ++chunks === 2) throw new Error('disk gone');
        return args.result;
      },
    };
    const errors: unknown[] = [];
    const log = { error: (...a: unknown[]) => errors.push(a) } as unknown as Logger;
    for (const format of ['xlsx', 'csv'] as const) {
      chunks = 0;
      errors.length = 0;
      const { body } = moneyExport(admin.db.withPlugin(failing), { from: '2026-11-19', to: '2026-11-19' }, format, log);
      let bytes = 0;
      let ended = false;
      body.on('data', (c: Buffer) => (bytes += c.length));
      body.on('end', () => (ended = true));
      await new Promise((resolve) => body.on('close', resolve));
      expect({ format, ended, logged: errors.length }).toEqual({ format, ended: false, logged: 1 });
      expect(bytes).toBeGreaterThan(0);
    }
    // a client that goes after the first bytes
    const abort = new AbortController();
    const res = await fetch(`${admin.url}/api/money/export.xlsx?from=2026-11-19&to=2026-11-19`, {
      headers: { cookie: op.sessionCookie! },
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    await reader.read().catch(() => undefined);
    // the whole file still comes to one who stays
    const { res: full, bytes } = await download(`/api/money/export.csv?from=2026-11-19&to=2026-11-19`);
    expect(full.status).toBe(200);
    expect(parseCsv(bytes.toString('utf8').slice(1))).toHaveLength(2_101);
  });
});
