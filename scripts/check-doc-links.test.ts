import path from 'node:path';
import { checkDocLinks, githubAnchor, repoFiles } from './check-doc-links';

const ARCH = [
  '# Architecture',
  '## 4 Workflows',
  '### 4.2 `purchase` — id `purchase/<taskId>`',
  '1. **Start**',
  '2. **Claim** a phone',
  '```',
  '# not a heading',
  '```',
  '### 4.3 The purchase’s invariants',
  '**Data dir**: where files go',
].join('\n');

const problems = (files: Record<string, string>) =>
  checkDocLinks(new Map(Object.entries({ 'docs/architecture.md': ARCH, ...files }))).map(
    (b) => `${b.file}:${b.line} ${b.citation}`,
  );

describe('doc-link check', () => {
  it('every section, anchor and titled paragraph cited in this repo exists', () => {
    const broken = checkDocLinks(repoFiles(path.resolve(__dirname, '..')));
    expect(broken.map((b) => `${b.file}:${b.line}: ${b.citation} — ${b.problem}`)).toEqual([]);
  });

  it('anchors are GitHub’s: lower case, punctuation dropped, spaces to dashes, CJK kept', () => {
    expect(githubAnchor('4.2 purchase — id purchase/<taskId>')).toBe('42-purchase--id-purchasetaskid');
    expect(githubAnchor('Secrets: where they are not')).toBe('secrets-where-they-are-not');
    expect(githubAnchor('5. 订单：同步并生成采购草稿')).toBe('5-订单同步并生成采购草稿');
  });

  it('accepts what exists: sections (default docs/architecture.md in code), steps, anchors, titles, labels', () => {
    expect(
      problems({
        'a.ts': [
          '// docs/architecture.md §4.2 step 2, §4.3',
          '// the claim (§4.2 step 1)',
          '// see docs/architecture.md',
          '// §4.3 wrapped onto the next line',
          '// docs/architecture.md#42-purchase--id-purchasetaskid',
          '// docs/architecture.md "The purchase", docs/architecture.md "Data dir"',
        ].join('\n'),
        'docs/other.md': '# Other\n## 1 One\nsee §1 and [arch](architecture.md#4-workflows), architecture.md §4.2',
      }),
    ).toEqual([]);
  });

  it('flags a missing section, step, anchor, title or file, and a heading inside a code fence is none', () => {
    expect(
      problems({
        'a.ts': [
          '// docs/architecture.md §4.7',
          '// §9.1 with no file named means docs/architecture.md',
          '// docs/architecture.md §4.2 step 8',
          '// docs/architecture.md#not-a-heading',
          '// docs/architecture.md "Hostile input"',
          '// docs/missing.md §1',
          '/** a title (docs/architecture.md "The',
          ' * hostile world") wrapped, and docs/architecture.md, "Nowhere" after a comma */',
        ].join('\n'),
        'docs/other.md': '# Other\n## 1 One\nsee §2 of this page and [x](#nowhere)',
      }),
    ).toEqual([
      'a.ts:1 §4.7',
      'a.ts:2 §9.1',
      'a.ts:3 §4.2 step 8',
      'a.ts:4 docs/architecture.md#not-a-heading',
      'a.ts:5 docs/architecture.md "Hostile input"',
      'a.ts:6 §1',
      'a.ts:7 docs/architecture.md "The hostile world"',
      'a.ts:8 docs/architecture.md, "Nowhere"',
      'docs/other.md:3 #nowhere',
      'docs/other.md:3 §2',
    ]);
  });
});
