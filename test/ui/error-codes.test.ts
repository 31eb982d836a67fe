import fs from 'node:fs';
import path from 'node:path';
import * as apiError from '../../domain/api-error';
import { API_ERROR_CODES, isApiErrorCode } from '../../domain/api-errors';

/**
 * The operator must never meet an error code without Chinese text. tsc already refuses an
 * `ApiError` whose code has no row in domain/api-errors.ts; this reads the admin's source as
 * text, so a code that reaches a response some other way (a refusal list's `code:`, a cast) is
 * caught too.
 */
const CODE = String.raw`'([A-Z][A-Z0-9_]*)'`;
/** The refusal factories of domain/api-error.ts (`invalidInput`, `notFound`, …), every one it exports. */
const FACTORIES = Object.entries(apiError)
  .filter(([, value]) => typeof value === 'function' && value !== apiError.ApiError)
  .map(([name]) => name);
const SENDERS: readonly RegExp[] = [
  new RegExp(String.raw`\b(?:${FACTORIES.join('|')}|errorBody)\(\s*${CODE}`, 'g'),
  // the purchase options' refusals (admin/purchase/options.ts)
  new RegExp(String.raw`\brefuse\(\s*${CODE}`, 'g'),
  // ApiError by its kind, its subclass for the device credentials (the CLI prints the same
  // refusal), and the HTTP layer's own answers about the request (admin/http/errors.ts)
  new RegExp(String.raw`\bnew (?:ApiError|DeviceCredentialError|HttpError)\(\s*(?:'[a-z_]+'|\d+)\s*,\s*${CODE}`, 'g'),
  new RegExp(String.raw`\bcode:\s*${CODE}`, 'g'),
  // The 顺运宝 adapter's failures (the sync's last_error), the per-line draft refusals and why no
  // purchase is known for a Shopee SKU (admin/purchase/known.ts).
  new RegExp(String.raw`\bnew (?:SybError|Refused|UnknownPurchase)\(\s*${CODE}`, 'g'),
  /\bCatalogErrors\.([A-Z][A-Z0-9_]*)/g,
];
const CATALOG_ERRORS_FILE = path.join('admin', 'catalog', 'errors.ts');

/** Every code string the given admin sources send, by file. */
function serverErrorCodes(files: ReadonlyMap<string, string>): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const add = (code: string, file: string): void => {
    const where = found.get(code) ?? new Set<string>();
    where.add(file);
    found.set(code, where);
  };
  for (const [file, text] of files) {
    for (const re of SENDERS) for (const m of text.matchAll(re)) add(m[1] as string, file);
    // The catalog's code list names its codes as `KEY: 'KEY'` values.
    if (file === CATALOG_ERRORS_FILE)
      for (const m of text.matchAll(new RegExp(`:\\s*${CODE}`, 'g'))) add(m[1] as string, file);
  }
  return found;
}

function adminSources(): Map<string, string> {
  const root = path.resolve(__dirname, '..', '..');
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
        files.set(rel, fs.readFileSync(path.join(root, rel), 'utf8'));
    }
  };
  walk('admin');
  return files;
}

describe('API error codes', () => {
  const sent = serverErrorCodes(adminSources());

  it('finds the codes of every kind of sender (the scan itself works)', () => {
    expect(FACTORIES).toEqual(expect.arrayContaining(['invalidInput', 'notFound', 'tooMany', 'unavailable']));
    // one per sender pattern: the middleware, a factory, new DeviceCredentialError, new HttpError,
    // a refusal list, the catalog list
    for (const code of [
      'INTERNAL',
      'LOGIN_FAILED',
      'PHONE_NOT_PENDING',
      'HOST_NOT_ALLOWED',
      'TASK_NOT_FOUND',
      'NOT_DRAFT',
      'SHOPEE_SKU_EXISTS',
      'COLLECT_NO_SKUS',
    ]) {
      expect(sent.has(code)).toBe(true);
    }
  });

  it('every code the admin sends has its Chinese text', () => {
    const missing = [...sent]
      .filter(([code]) => !isApiErrorCode(code))
      .map(([code, files]) => `${code} (${[...files].join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('every row is a code the admin sends, in Chinese', () => {
    const unsent = Object.keys(API_ERROR_CODES).filter((code) => !sent.has(code));
    expect(unsent).toEqual([]);
    for (const text of Object.values(API_ERROR_CODES)) expect(text).toMatch(/[\u4e00-\u9fff]/);
  });

  it("the UI's own codes never repeat a server code: a code has one wording, the server's table's", () => {
    const ui = fs.readFileSync(path.resolve(__dirname, '..', '..', 'ui', 'src', 'errors.ts'), 'utf8');
    const table = /const CLIENT_ERROR_CODES = \{([\s\S]*?)\} as const/.exec(ui)?.[1] ?? '';
    const clientCodes = [...table.matchAll(/^\s*([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1] as string);
    expect(clientCodes).toContain('NETWORK_ERROR'); // the scan itself works
    expect(clientCodes.filter((code) => isApiErrorCode(code))).toEqual([]);
    // the 新建采购任务 form's refusal of goods never collected is the server's code
    expect(isApiErrorCode('NOT_COLLECTED')).toBe(true);
  });

  it('a new code string in the admin fails the check', () => {
    const files = new Map([
      [
        'admin/x.ts',
        [
          "throw conflict('BRAND_NEW_CODE', 'x');",
          "throw new HttpError(418, 'ANOTHER_NEW_CODE', 'y');",
          "refusals.push({ code: 'THIRD_NEW_CODE' });",
          "throw tooMany('FOURTH_NEW_CODE', 'z');",
          "throw new DeviceCredentialError('not_found', 'FIFTH_NEW_CODE', 'w');",
        ].join('\n'),
      ],
    ]);
    const codes = [...serverErrorCodes(files).keys()];
    expect(codes.sort()).toEqual([
      'ANOTHER_NEW_CODE',
      'BRAND_NEW_CODE',
      'FIFTH_NEW_CODE',
      'FOURTH_NEW_CODE',
      'THIRD_NEW_CODE',
    ]);
    expect(codes.filter((c) => !isApiErrorCode(c))).toHaveLength(5);
  });
});
