import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

interface Limits {
  OVER_THE_LIMIT: Record<string, [number, number]>;
  MAX_LINES: number;
  MAX_FUNCTION_LINES: number;
  SIM_MAX_LINES: number;
  SIM_MAX_FUNCTION_LINES: number;
}

interface Job {
  /** texts linted as if they were these files */
  texts: { filePath: string; text: string }[];
  /** files on disk linted with only these limits (no row of OVER_THE_LIMIT) */
  base: { files: string[]; maxLines: number; maxFunctionLines: number }[];
}

interface Answer {
  limits: Limits;
  /** per text: the size rules it breaks */
  texts: string[][];
  /** per base group: file → the size rules it breaks */
  base: Record<string, string[]>[];
}

/**
 * eslint.config.mjs is ESM and loads typescript-eslint: one child process loads it once and
 * answers every question of this file with ESLint's own API, as `npm run lint` would lint.
 */
const CHILD = `
import { ESLint } from 'eslint';
const job = JSON.parse(process.argv[1]);
const m = await import('./eslint.config.mjs');
const { default: _, ...limits } = m;
const size = (r) => r.messages.map((x) => x.ruleId ?? x.message).filter((id) => id.startsWith('max-lines'));
const eslint = new ESLint();
const texts = [];
for (const t of job.texts) texts.push(size((await eslint.lintText(t.text, { filePath: t.filePath }))[0]));
const base = [];
for (const g of job.base) {
  const counted = { skipBlankLines: true, skipComments: true };
  const only = new ESLint({
    overrideConfig: {
      rules: {
        'max-lines': ['error', { max: g.maxLines, ...counted }],
        'max-lines-per-function': ['error', { max: g.maxFunctionLines, ...counted }],
      },
    },
  });
  const results = g.files.length ? await only.lintFiles(g.files) : [];
  base.push(Object.fromEntries(results.map((r) => [r.filePath.slice(process.cwd().length + 1), size(r)])));
}
console.log(JSON.stringify({ limits, texts, base }));
`;

async function ask(job: Job): Promise<Answer> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', CHILD, JSON.stringify(job)], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Answer;
}

const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join('\n');
/** a function of exactly n lines */
const fn = (n: number) =>
  `export function f(): number {\n  let x = 0;\n${lines(n - 4, () => '  x += 1;')}\n  return x;\n}\n`;

describe('size limits in npm run lint (eslint.config.mjs)', () => {
  let limits: Limits;
  const cases: [string, string, string[]][] = [];
  let answers: Map<string, string[]>;
  let base: Record<string, string[]>;

  beforeAll(async () => {
    // the limits first: the cases are built from them
    limits = (await ask({ texts: [], base: [] })).limits;
    const { MAX_LINES, MAX_FUNCTION_LINES, SIM_MAX_LINES, SIM_MAX_FUNCTION_LINES, OVER_THE_LIMIT } = limits;
    const consts = (n: number) => lines(n, (i) => `export const c${i} = ${i};`);
    // a listed file with a function cap, when any file is still listed (the list empties as files are split)
    const listed = Object.entries(OVER_THE_LIMIT).find(([f, [, c]]) => c > 0 && !f.startsWith('sim/'));
    cases.push(
      ['file over 300', 'admin/new-module.ts', ['max-lines']],
      ['file at 300 with blank lines and comments', 'admin/new-module.ts', []],
      ['function over 80', 'admin/new-module.ts', ['max-lines-per-function']],
      ['component over 80', 'ui/src/pages/NewPage.tsx', ['max-lines-per-function']],
      ['function at 80', 'admin/new-module.ts', []],
      ['long describe', 'admin/x.test.ts', []],
      ['test file over 600', 'test/tasks/x.test.ts', ['max-lines']],
      ['sim function at its limit', 'sim/phone/x.ts', []],
      ['sim function over its limit', 'sim/phone/x.ts', ['max-lines-per-function']],
      ['sim file over its limit', 'sim/syb/x.ts', ['max-lines']],
    );
    if (listed)
      cases.push(
        ['listed file at its cap', listed[0], []],
        ['listed file over its cap', listed[0], ['max-lines-per-function']],
      );
    const texts = [
      consts(MAX_LINES + 1),
      lines(MAX_LINES, (i) => `export const c${i} = ${i};\n\n// why ${i}`),
      fn(MAX_FUNCTION_LINES + 1),
      fn(MAX_FUNCTION_LINES + 1),
      fn(MAX_FUNCTION_LINES),
      fn(400),
      consts(601),
      fn(SIM_MAX_FUNCTION_LINES),
      fn(SIM_MAX_FUNCTION_LINES + 1),
      consts(SIM_MAX_LINES + 1),
      ...(listed ? [fn(listed[1][1]), fn(listed[1][1] + 1)] : []),
    ];
    const files = Object.keys(OVER_THE_LIMIT).filter((f) => fs.existsSync(path.join(ROOT, f)));
    const answer = await ask({
      texts: cases.map(([, filePath], i) => ({ filePath, text: texts[i]! })),
      base: [
        {
          files: files.filter((f) => !f.startsWith('sim/')),
          maxLines: MAX_LINES,
          maxFunctionLines: MAX_FUNCTION_LINES,
        },
        {
          files: files.filter((f) => f.startsWith('sim/')),
          maxLines: SIM_MAX_LINES,
          maxFunctionLines: SIM_MAX_FUNCTION_LINES,
        },
      ],
    });
    answers = new Map(cases.map(([name], i) => [name, answer.texts[i]!]));
    base = Object.assign({}, ...answer.base) as Record<string, string[]>;
  });

  it('production code: 300 lines of code a file, 80 a function, blank lines and comments not counted', () => {
    expect([limits.MAX_LINES, limits.MAX_FUNCTION_LINES]).toEqual([300, 80]);
    for (const [name, , want] of cases.slice(0, 5)) expect([name, answers.get(name)]).toEqual([name, want]);
  });

  it('tests bound the file (600), not the describe() that holds it; the simulators have their own limits', () => {
    for (const [name, , want] of cases.slice(5, 10)) expect([name, answers.get(name)]).toEqual([name, want]);
  });

  it('a listed file may not grow past its cap', () => {
    // with no file listed there is no cap to grow past: every file is held to the limits above
    if (cases.length === 10) expect(Object.keys(limits.OVER_THE_LIMIT)).toEqual([]);
    for (const [name, , want] of cases.slice(10)) expect([name, answers.get(name)]).toEqual([name, want]);
  });

  it('every file listed over the limit exists and is still over it (a split file comes off the list)', () => {
    const listed = Object.keys(limits.OVER_THE_LIMIT);
    expect(listed.filter((f) => !fs.existsSync(path.join(ROOT, f)))).toEqual([]);
    const stale = listed.flatMap((f) => {
      const [maxLines, maxFunction] = limits.OVER_THE_LIMIT[f]!;
      const rules = base[f] ?? [];
      return [
        ...(maxLines && !rules.includes('max-lines') ? [`${f}: within the file limit now, set 0`] : []),
        ...(maxFunction && !rules.includes('max-lines-per-function')
          ? [`${f}: within the function limit now, set 0`]
          : []),
      ];
    });
    expect(stale).toEqual([]);
  });
});
