import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm run lint` step: every place the code and the docs cite in the docs exists. The forms in
 * use, and what each must match:
 * - `docs/x.md#anchor`, `[text](x.md#anchor)`, `[text](#anchor)`: a heading of that file whose
 *   GitHub anchor is `anchor`;
 * - `§4.2`, `§4.2 step 8`: a heading numbered 4.2 (and, with a step, an item `8.` of its
 *   numbered list) in the file named just before it on the line (`docs/x.md §4.2`,
 *   `architecture.md §4.2`, `[x.md](x.md) §2`), or at the end of the line before (a comment
 *   wrapped there); with no file named: the doc itself in a doc, docs/architecture.md in code;
 * - `docs/x.md "Title"` (or `docs/x.md, "Title"`): a heading whose text, its number left out, begins with `Title`, or a
 *   paragraph labelled `**Title**`.
 * This file and its test spell the forms out, so they are not scanned.
 */

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|md)$/;
const SKIP = /^(node_modules|dist|data|\.tools|\.jest-cache|coverage|ui\/dist)\/|^scripts\/check-doc-links\./;
const DEFAULT_DOC = 'docs/architecture.md';

interface Heading {
  /** `4.2` for `### 4.2 The purchase`, null for an unnumbered heading */
  number: string | null;
  /** the text without its number */
  title: string;
  anchor: string;
  /** numbers of the top-level numbered list items between this heading and the next */
  steps: Set<number>;
}

interface ParsedDoc {
  headings: Heading[];
  anchors: Set<string>;
  /** the `**label**` texts, lower case: a paragraph can be cited by its label */
  labels: string[];
}

export interface BrokenCitation {
  file: string;
  line: number;
  citation: string;
  problem: string;
}

/** GitHub's heading anchor: lower case, punctuation dropped (letters of any script kept), spaces → `-`. */
export function githubAnchor(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function parseDoc(markdown: string): ParsedDoc {
  const headings: Heading[] = [];
  const labels: string[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (f[1] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const text = h[1]!;
      const base = githubAnchor(text.replace(/`/g, ''));
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      const anchor = n === 0 ? base : `${base}-${n}`;
      anchors.add(anchor);
      const numbered = /^(\d+(?:\.\d+)*)\.?\s+(.*)$/.exec(text);
      headings.push({
        number: numbered ? numbered[1]! : null,
        title: (numbered ? numbered[2]! : text).replace(/`/g, ''),
        anchor,
        steps: new Set(),
      });
      continue;
    }
    const step = /^(\d+)\.\s/.exec(line);
    if (step && headings.length) headings[headings.length - 1]!.steps.add(Number(step[1]));
    for (const b of line.matchAll(/\*\*([^*]+)\*\*/g)) labels.push(b[1]!.replace(/`/g, '').toLowerCase());
  }
  return { headings, anchors, labels };
}

const MD_REF = /(?:[\w.-]+\/)*[\w.-]+\.md\b/g;

/** The repo path a cited markdown name means, seen from `from`. */
function resolveDoc(from: string, name: string, exists: (p: string) => boolean): string {
  const fromDir = path.posix.dirname(from);
  const relative = path.posix.normalize(path.posix.join(fromDir, name));
  if (exists(relative)) return relative;
  return path.posix.normalize(name);
}

/** Checks the given files (repo path → text); markdown files among them are the targets. */
export function checkDocLinks(files: ReadonlyMap<string, string>): BrokenCitation[] {
  const docs = new Map<string, ParsedDoc>();
  for (const [p, text] of files) if (p.endsWith('.md')) docs.set(p, parseDoc(text));
  const exists = (p: string) => files.has(p);
  const broken: BrokenCitation[] = [];

  for (const [file, text] of files) {
    const isDoc = file.endsWith('.md');
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      const report = (citation: string, problem: string) =>
        broken.push({ file, line: i + 1, citation: citation.trim(), problem });
      const target = (name: string, citation: string) => {
        const doc = resolveDoc(file, name, exists);
        const parsed = docs.get(doc);
        if (!parsed) report(citation, `${doc} does not exist`);
        return { doc, parsed };
      };

      // file.md#anchor and (#anchor)
      for (const m of line.matchAll(/((?:[\w.-]+\/)*[\w.-]+\.md)?#([\p{L}\p{N}_-]+)/gu)) {
        const [whole, name, anchor] = m;
        if (!name && !(isDoc && line[m.index! - 1] === '(')) continue; // a bare `#x` is no citation
        const { doc, parsed } = name ? target(name, whole) : { doc: file, parsed: docs.get(file) };
        if (parsed && !parsed.anchors.has(anchor!)) report(whole, `${doc} has no heading with anchor #${anchor}`);
      }

      // file.md "Title", also `file.md, "Title"` and a title a comment wraps onto the next line
      const next = (lines[i + 1] ?? '').replace(/^\s*(\*|\/\/|#)?\s*/, '');
      const joined = /\.md`?\)?,? "[^"]*$/.test(line) ? `${line} ${next}` : line;
      for (const m of joined.matchAll(/((?:[\w.-]+\/)*[\w.-]+\.md)`?\)?,? "([^"]+)"/g)) {
        if (m.index! >= line.length) continue; // the next line's own, reported there
        const [whole, name, title] = m;
        const { doc, parsed } = target(name!, whole);
        const want = title!.toLowerCase();
        const found =
          parsed?.headings.some((h) => h.title.toLowerCase().startsWith(want)) ||
          parsed?.labels.some((l) => l.startsWith(want));
        if (parsed && !found) report(whole, `${doc} has no heading or **label** "${title}"`);
      }

      // §n.n [step k]
      for (const m of line.matchAll(/§\s?(\d+(?:\.\d+)*)(?:\s+steps?\s+(\d+))?/g)) {
        const [whole, number, step] = m;
        const before = [...line.slice(0, m.index).matchAll(MD_REF)].pop()?.[0];
        const wrapped = before ? undefined : /(?:[\w.-]+\/)*[\w.-]+\.md\W{0,2}$/.exec(lines[i - 1] ?? '')?.[0];
        const name = before ?? wrapped?.replace(/\W+$/, '');
        const { doc, parsed } = name
          ? target(name, whole)
          : { doc: isDoc ? file : DEFAULT_DOC, parsed: docs.get(isDoc ? file : DEFAULT_DOC) };
        if (!parsed) continue;
        const heading = parsed.headings.find((h) => h.number === number);
        if (!heading) report(whole, `${doc} has no section ${number}`);
        else if (step && !heading.steps.has(Number(step)))
          report(whole, `${doc} §${number} has no numbered step ${step}`);
      }
    });
  }
  return broken;
}

/** The repo's tracked and new (not ignored) source and doc files. */
export function repoFiles(root: string): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter((p) => p && SOURCE.test(p) && !SKIP.test(p));
  const files = new Map<string, string>();
  for (const p of listed) {
    const abs = path.join(root, p);
    if (fs.existsSync(abs)) files.set(p, fs.readFileSync(abs, 'utf8'));
  }
  return files;
}

if (require.main === module) {
  const root = path.resolve(__dirname, '..');
  const broken = checkDocLinks(repoFiles(root));
  for (const b of broken) console.error(`${b.file}:${b.line}: ${b.citation} — ${b.problem}`);
  if (broken.length) {
    console.error(`check-doc-links: ${broken.length} citation(s) point at nothing`);
    process.exit(1);
  }
  console.log('check-doc-links: every cited doc section exists');
}
