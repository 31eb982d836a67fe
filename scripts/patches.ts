import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import ts from 'typescript';
import { parseEnv } from '../admin/config/env';
import { describeError } from '../platform/errors';
import { temporalConnection, temporalConnectOptions } from '../temporal/connection';

/**
 * `npm run patches` (docs/versioning.md "Retiring a patch"): every `patched()` / `deprecatePatch()`
 * id in workflows/, the step it guards, the date of the commit that first carried the call in its
 * present stage, and how many open workflows of the configured namespace — found and reached as
 * the admin finds Temporal, the same CMAUTOBUY_TEMPORAL_* variables as `npm run replay` — started
 * before that date. `--json` prints `{"namespace", "patches": [{"id", "step", "added",
 * "open_before", "stage", "sites"}]}`; `--root <checkout>` reads another checkout's workflows/
 * and git history.
 *
 * Everything but the count comes from the code itself, so the list cannot drift from it. When
 * Temporal cannot be asked, the list is still printed (open_before null) and the exit is 2.
 */

const ROOT = path.resolve(__dirname, '..');
const CALLS = new Set(['patched', 'deprecatePatch']);
/** a refused port fails at once; an address that swallows packets must not hold the command */
const CONNECT_TIMEOUT = '5 seconds';
const COUNT_DEADLINE_MS = 10_000;

type PatchStage = 'patched' | 'deprecated';

interface PatchSite {
  id: string;
  stage: PatchStage;
  /** relative to the checkout, `/`-separated */
  file: string;
  line: number;
  /** the named functions around the call, outermost first: `begin › beginAttempt` */
  fn: string;
}

interface PatchRow {
  id: string;
  /** where the call sits: `purchase/prepare.ts: begin, beginInOne` (files under workflows/) */
  step: string;
  /** ISO time of the first commit whose workflows/ carried the call in its present stage; null when none does */
  added: string | null;
  /** open workflows that started before `added`; null without a date or without Temporal */
  open_before: number | null;
  /** `patched` while any call site still branches on the id */
  stage: PatchStage;
  /** `workflows/purchase/prepare.ts:45`, one per call */
  sites: string[];
}

/** A call whose id is not a string literal: this list (and the replay test) could not name it. */
class PatchScanError extends Error {}

/** Every `patched('…')` / `deprecatePatch('…')` call under `<root>/workflows`. */
function scanPatchSites(root: string): PatchSite[] {
  const dir = path.join(root, 'workflows');
  const files = fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.split(path.sep).join('/'))
    .sort();
  const sites: PatchSite[] = [];
  for (const rel of files) {
    const file = `workflows/${rel}`;
    const source = ts.createSourceFile(
      file,
      fs.readFileSync(path.join(dir, rel), 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    const visit = (node: ts.Node): void => {
      const callee = ts.isCallExpression(node) ? calleeName(node.expression) : null;
      if (ts.isCallExpression(node) && callee && CALLS.has(callee)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        const arg = node.arguments[0];
        if (!arg || !ts.isStringLiteralLike(arg))
          throw new PatchScanError(`${file}:${line}: ${callee}() must be given its id as a string literal`);
        sites.push({
          id: arg.text,
          stage: callee === 'patched' ? 'patched' : 'deprecated',
          file,
          line,
          fn: enclosingFunctions(node),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return sites;
}

function calleeName(expr: ts.Expression): string | null {
  if (ts.isIdentifier(expr)) return expr.text;
  if (ts.isPropertyAccessExpression(expr)) return expr.name.text;
  return null;
}

/**
 * The named functions around a node, outermost first. An arrow is named by the const it is
 * assigned to, or — a message handler — by the message `setHandler` gives it for.
 */
function enclosingFunctions(node: ts.Node): string {
  const names: string[] = [];
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) && n.name) names.unshift(n.name.text);
    else if (ts.isMethodDeclaration(n) && ts.isIdentifier(n.name)) {
      const owner = ts.isClassDeclaration(n.parent) && n.parent.name ? `${n.parent.name.text}.` : '';
      names.unshift(`${owner}${n.name.text}`);
    } else if (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) {
      const at = n.parent;
      if (ts.isVariableDeclaration(at) && ts.isIdentifier(at.name)) names.unshift(at.name.text);
      else if (ts.isCallExpression(at) && calleeName(at.expression) === 'setHandler') {
        const message = at.arguments[0];
        if (message && ts.isIdentifier(message)) names.unshift(message.text);
      }
    }
  }
  return names.length ? names.join(' › ') : '(module)';
}

/**
 * When each call first appeared: `patched:<id>` / `deprecated:<id>` → the ISO committer date of
 * the first commit (on HEAD's history) that added a line carrying it under workflows/. Null when
 * there is no git, no repository, or only a shallow one (its oldest commit would look like the
 * day every patch was added).
 */
function firstCommitted(root: string): Map<string, string> | null {
  const git = (args: string[]) =>
    execFileSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 512 * 1024 * 1024,
    });
  let log: string;
  try {
    if (git(['rev-parse', '--is-shallow-repository']).trim() !== 'false') return null;
    log = git([
      'log',
      '--reverse',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--unified=0',
      '--format=%x00%cI',
      '-p',
      '--',
      'workflows/',
    ]);
  } catch {
    return null;
  }
  const first = new Map<string, string>();
  let date: string | null = null;
  for (const line of log.split('\n')) {
    if (line.startsWith('\0')) date = new Date(line.slice(1)).toISOString();
    else if (date && line.startsWith('+') && !/^\+\+\+ (b\/|\/dev\/null)/.test(line)) {
      for (const m of line.matchAll(/\b(patched|deprecatePatch)\(\s*(['"`])([^'"`]+)\2\s*\)/g)) {
        const key = `${m[1] === 'patched' ? 'patched' : 'deprecated'}:${m[3]!}`;
        if (!first.has(key)) first.set(key, date);
      }
    }
  }
  return first;
}

/** The static part of the list: one row per id, oldest first; open_before still null. */
function listPatches(root: string): PatchRow[] {
  const sites = scanPatchSites(root);
  const dates = firstCommitted(root);
  const ids = [...new Set(sites.map((s) => s.id))];
  const rows = ids.map((id): PatchRow => {
    const own = sites.filter((s) => s.id === id);
    const stage: PatchStage = own.some((s) => s.stage === 'patched') ? 'patched' : 'deprecated';
    const byFile = new Map<string, string[]>();
    for (const s of own) {
      const fns = byFile.get(s.file) ?? [];
      if (!fns.includes(s.fn)) fns.push(s.fn);
      byFile.set(s.file, fns);
    }
    return {
      id,
      step: [...byFile].map(([file, fns]) => `${file.replace(/^workflows\//, '')}: ${fns.join(', ')}`).join('; '),
      added: dates?.get(`${stage}:${id}`) ?? null,
      open_before: null,
      stage,
      sites: own.map((s) => `${s.file}:${s.line}`),
    };
  });
  // undated last; plain code-unit order, as ISO times and ids sort
  const key = (r: PatchRow) => `${r.added ?? '~'} ${r.id}`;
  return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Open workflows of the client's namespace started before `at` (an ISO time). */
async function countOpenBefore(client: Client, at: string): Promise<number> {
  const query = `ExecutionStatus="Running" AND StartTime < "${new Date(at).toISOString()}"`;
  const { count } = await client.withDeadline(Date.now() + COUNT_DEADLINE_MS, () => client.workflow.count(query));
  return count;
}

interface Counted {
  namespace: string | null;
  address: string | null;
  open: number | null;
  problem: string | null;
}

/** Fills in open_before from the configured namespace; a count is a number, no payload: no codec or keys needed. */
async function countAgainstTemporal(rows: PatchRow[]): Promise<Counted> {
  let target: { namespace: string; address: string } | null = null;
  try {
    const temporal = temporalConnection(parseEnv());
    target = { namespace: temporal.namespace, address: temporal.address };
    const connection = await Connection.connect({
      ...temporalConnectOptions(temporal),
      connectTimeout: CONNECT_TIMEOUT,
    });
    try {
      const client = new Client({ connection, namespace: temporal.namespace });
      const open = await client.withDeadline(Date.now() + COUNT_DEADLINE_MS, () =>
        client.workflow.count('ExecutionStatus="Running"'),
      );
      for (const row of rows) if (row.added) row.open_before = await countOpenBefore(client, row.added);
      return { ...target, open: open.count, problem: null };
    } finally {
      await connection.close();
    }
  } catch (err) {
    for (const row of rows) row.open_before = null;
    const where = target ? `namespace ${target.namespace} at ${target.address}` : 'the configured Temporal';
    return {
      namespace: target?.namespace ?? null,
      address: target?.address ?? null,
      open: null,
      problem: `could not count the open workflows of ${where}: ${describeError(err)}`,
    };
  }
}

function table(rows: PatchRow[], counted: Counted): string {
  const head = counted.problem
    ? `patches in workflows/ (open workflows not counted: Temporal not reached)`
    : `patches in workflows/, against namespace ${counted.namespace} at ${counted.address}: ${counted.open} open workflows`;
  const cells = [
    ['id', 'stage', 'added', 'open before', 'step'],
    ...rows.map((r) => [
      r.id,
      r.stage,
      r.added ? r.added.replace(/\.\d{3}Z$/, 'Z') : '-',
      r.open_before === null ? (r.added ? '?' : '-') : String(r.open_before),
      r.step,
    ]),
  ];
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)));
  const lines = cells.map((c) =>
    c
      .map((cell, i) => (i === c.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
  const notes: string[] = [];
  if (rows.some((r) => !r.added))
    notes.push(
      'added -: no commit carries the call (not committed yet, or no full git history here): nothing to count',
    );
  notes.push(
    'added is the commit date; a host that deployed it later ran older code until then: the deploy gate proves a retirement (docs/versioning.md)',
  );
  return [head, '', ...lines, '', ...notes].join('\n');
}

const USAGE = 'usage: npm run patches [-- --json] [--root <checkout>]';

async function main(argv: string[]): Promise<number> {
  let json = false;
  let root = ROOT;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--json') json = true;
    else if (argv[i] === '--root' && argv[i + 1]) root = path.resolve(argv[++i]!);
    else {
      console.error(USAGE);
      return 2;
    }
  }
  const rows = listPatches(root);
  const counted = await countAgainstTemporal(rows);
  if (json) console.log(JSON.stringify({ namespace: counted.namespace, patches: rows }, null, 2));
  else console.log(table(rows, counted));
  if (counted.problem) console.error(`patches: ${counted.problem}`);
  return counted.problem ? 2 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`patches: ${err instanceof PatchScanError ? err.message : describeError(err)}`);
      process.exit(2);
    },
  );
}
