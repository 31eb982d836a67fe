import fs from 'node:fs';
import path from 'node:path';
import * as apiError from '../../domain/api-error';
import { API_ERROR_CODES, isApiErrorCode, isOperatorText } from '../../domain/api-errors';

/**
 * Every refusal the admin can send reads as Chinese to the operator: the UI shows the server's
 * message when it is operator text (domain/api-errors.ts `isOperatorText`), else the code's row
 * of the error table. This reads every sender in the admin's source (the refusal factories of
 * domain/api-error.ts, `new ApiError`, the device credentials' refusals, the HTTP layer's `new
 * HttpError`, the refusal lists' `{ code, message }`) and
 * works out what the operator would read for it; that text must have Chinese wording of its own.
 * Interpolated values and quoted names (a column, an option) do not count as wording.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const CODE = String.raw`(?:'([A-Z][A-Z0-9_]*)'|CatalogErrors\.([A-Z][A-Z0-9_]*))`;
const FACTORIES = Object.entries(apiError)
  .filter(([, value]) => typeof value === 'function' && value !== apiError.ApiError)
  .map(([name]) => name);
const SENDERS: readonly RegExp[] = [
  new RegExp(String.raw`\b(?:${FACTORIES.join('|')}|refuse)\(\s*${CODE}\s*,\s*`, 'g'),
  new RegExp(
    String.raw`\bnew (?:ApiError|DeviceCredentialError|HttpError)\(\s*(?:'[a-z_]+'|\d+)\s*,\s*${CODE}\s*,\s*`,
    'g',
  ),
  new RegExp(String.raw`\bcode:\s*${CODE}\s*,\s*message:\s*`, 'g'),
];
/** the workbook's column names (admin/catalog/import.ts): a name, not wording */
const COLUMN_NAMES = /商品ID|商品名稱|商品規格ID|商品規格|主商品貨號|商品選項貨號|價格|庫存/gu;
const HAN = /[\u4e00-\u9fff]/u;

interface Sent {
  file: string;
  code: string;
  /** the message as written, `${…}` replaced by a value without Chinese; null when not a literal */
  message: string | null;
}

/** The string literal at `at` ('…', "…" or `…` with balanced `${…}`), or null for any other expression. */
function literalAt(text: string, at: number): string | null {
  const quote = text[at];
  if (quote !== "'" && quote !== '"' && quote !== '`') return null;
  let out = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      out += text[i + 1] ?? '';
      i++;
    } else if (c === quote) return out;
    else if (quote === '`' && c === '$' && text[i + 1] === '{') {
      let depth = 1;
      i += 2;
      while (i < text.length && depth > 0) {
        if (text[i] === '{') depth++;
        else if (text[i] === '}') depth--;
        i++;
      }
      i--;
      out += 'x1';
    } else out += c;
  }
  return null;
}

function sentIn(file: string, text: string): Sent[] {
  const found: Sent[] = [];
  for (const re of SENDERS)
    for (const m of text.matchAll(re))
      found.push({ file, code: (m[1] ?? m[2])!, message: literalAt(text, m.index + m[0].length) });
  return found;
}

function adminSources(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
        files.set(rel, fs.readFileSync(path.join(ROOT, rel), 'utf8'));
    }
  };
  walk('admin');
  return files;
}

/** Chinese that says something: not only inside quotes, not only a column name. */
function hasOwnWording(text: string): boolean {
  return HAN.test(text.replace(/「[^」]*」/gu, '').replace(COLUMN_NAMES, ''));
}

/** What the UI shows for a refusal (ui/src/errors.ts): the message when it is operator text, else the table's row. */
function operatorReads(s: Sent): string {
  if (s.message !== null && isOperatorText(s.message)) return s.message;
  return isApiErrorCode(s.code) ? API_ERROR_CODES[s.code] : '';
}

describe('every refusal the admin sends reads as Chinese', () => {
  const sent = [...adminSources()].flatMap(([file, text]) => sentIn(file, text));

  it('finds the senders (the scan itself works)', () => {
    expect(sent.length).toBeGreaterThan(80);
    const codes = new Set(sent.map((s) => s.code));
    for (const code of ['MISSING_COLUMNS', 'QUANTITY_OVER_LIMIT', 'LOGIN_RATE_LIMITED', 'TASK_NOT_FOUND', 'NOT_DRAFT'])
      expect(codes).toContain(code);
    expect(sent.find((s) => s.code === 'MISSING_COLUMNS')?.message).toMatch(/缺少必需的列/u);
  });

  it('each one, as the operator reads it, has Chinese wording of its own', () => {
    const bad = sent
      .filter((s) => !hasOwnWording(operatorReads(s)))
      .map((s) => `${s.file}: ${s.code} ${JSON.stringify(s.message)} → ${JSON.stringify(operatorReads(s))}`);
    expect(bad).toEqual([]);
  });

  it('every row of the error table has wording of its own, and says 虾皮, never 蝦皮', () => {
    for (const [code, text] of Object.entries(API_ERROR_CODES)) {
      expect([code, hasOwnWording(text)]).toEqual([code, true]);
      expect(text).not.toMatch(/蝦皮/u);
    }
  });

  it('an English message carrying Chinese names is not shown as it is; names alone are no wording', () => {
    // the import's old missing-column message: Chinese only in the column names it lists
    const old = 'the header row (row 1) lacks required columns: 商品ID, 商品名稱';
    expect(isOperatorText(old)).toBe(false);
    expect(operatorReads({ file: 'x', code: 'MISSING_COLUMNS', message: old })).toBe(API_ERROR_CODES.MISSING_COLUMNS);
    expect(hasOwnWording('「商品ID」')).toBe(false);
    expect(hasOwnWording('商品ID, 商品名稱')).toBe(false);
    expect(isOperatorText('数量 11 超过上限 10')).toBe(true);
    // a sender whose message and row were both without wording would be reported
    const [s] = sentIn('admin/x.ts', "throw invalidInput('NO_SUCH_ROW', `missing ${cols}`);");
    expect(s).toEqual({ file: 'admin/x.ts', code: 'NO_SUCH_ROW', message: 'missing x1' });
    expect(hasOwnWording(operatorReads(s!))).toBe(false);
  });
});
