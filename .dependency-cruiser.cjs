// @ts-check
/**
 * The dependency rules of the repository: which folder may import which (besides itself and
 * npm packages), and no cycles anywhere. `npm run lint` and `npm test` run this
 * (`npm run depcruise`); test/architecture/dependency-rules.test.ts proves the rules bite.
 *
 * | folder           | may import                                                                |
 * |------------------|---------------------------------------------------------------------------|
 * | domain/          | nothing of ours (pure)                                                    |
 * | platform/        | domain/                                                                   |
 * | temporal/        | domain/, platform/                                                        |
 * | workflows/       | domain/; `import type` only from activities/                              |
 * | activities/admin | domain/, platform/, admin/                                                |
 * | activities/device| domain/, platform/, device-worker/                                        |
 * | admin/           | domain/, platform/, temporal/, migrations/, activities/admin/, workflows/ |
 * | device-worker/   | domain/, platform/, temporal/, activities/device/ (worker entry only)     |
 * | phone-host/      | domain/, platform/, temporal/, device-worker/adb/                         |
 * | sim/             | domain/ (types only), platform/                                           |
 * | ui/src/          | domain/                                                                   |
 * | migrations/      | nothing of ours                                                           |
 * | scripts/, bench/, test/, every *.test.ts and testkit.ts (test-only set-up) | anything     |
 *
 * No production folder (domain/, platform/, temporal/, workflows/, activities/, admin/,
 * device-worker/, phone-host/) imports scripts/: what a process and a dev script both need
 * (child processes, port holders) lives in platform/. The `only` rules below forbid it folder
 * by folder; `production-never-imports-scripts` says it by name, so the error gives the reason.
 *
 * admin/ imports of workflows/ are limited to the message definitions (updates, queries) and
 * the bundle path, which the file-level rules below cannot tell apart: review keeps them so.
 */

const OURS =
  '^(domain|platform|temporal|workflows|activities|admin|device-worker|phone-host|sim|ui|migrations|scripts|bench|test)/';
/** The folders of the production processes (admin, admin worker, device worker, phone host). */
const PRODUCTION = '^(domain|platform|temporal|workflows|activities|admin|device-worker|phone-host)/';
const TESTS = ['\\.test\\.ts$', '/testkit\\.ts$', '^test/', '^bench/', '^scripts/'];

/** `from` may import only `allowed` of ours (a regex each, anchored at the repository root). */
function only(name, from, allowed, comment) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from, pathNot: TESTS },
    to: { path: OURS, pathNot: [from, ...allowed] },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles anywhere: a cycle makes load order and ownership unclear.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'production-never-imports-scripts',
      comment:
        'A production process never leans on a dev script: what both need (child processes, restart with back-off, port holders) lives in platform/.',
      severity: 'error',
      // tests and testkits are not built into dist/ (tsconfig.build.json), so they may
      from: { path: PRODUCTION, pathNot: TESTS },
      to: { path: '^scripts/' },
    },
    only(
      'domain-is-pure',
      '^domain/',
      [],
      'domain/ holds pure types, schemas, tables and helpers; it imports nothing of ours.',
    ),
    only(
      'platform',
      '^platform/',
      ['^domain/'],
      'platform/ is process plumbing shared by every process; it may use domain/ only.',
    ),
    only(
      'temporal',
      '^temporal/',
      ['^domain/', '^platform/'],
      'temporal/ (CLI, dev server, search attributes, connection rule) may use domain/ and platform/.',
    ),
    only(
      'workflows',
      '^workflows/',
      ['^domain/', '^activities/'],
      'Workflows are deterministic: domain/ plus activity types.',
    ),
    {
      name: 'workflows-type-only-activities',
      comment: 'A workflow may name activity types but never load activity code into the workflow bundle.',
      severity: 'error',
      from: { path: '^workflows/', pathNot: TESTS },
      to: { path: '^activities/', dependencyTypesNot: ['type-only'] },
    },
    only(
      'activities-admin',
      '^activities/admin/',
      ['^domain/', '^platform/', '^admin/'],
      'Admin activities touch the admin DB through admin/.',
    ),
    only(
      'activities-device',
      '^activities/device/',
      ['^domain/', '^platform/', '^device-worker/'],
      'Device activities drive a phone through device-worker/.',
    ),
    only(
      'admin',
      '^admin/',
      ['^domain/', '^platform/', '^temporal/', '^migrations/', '^activities/admin/', '^workflows/'],
      'The admin process: never the device side.',
    ),
    only(
      'device-worker',
      '^device-worker/',
      ['^domain/', '^platform/', '^temporal/', '^activities/device/'],
      'The device worker never imports admin/, workflows/ or the simulator.',
    ),
    {
      name: 'device-worker-registers-activities-in-entry-only',
      comment: 'Only the worker entry registers the device activities; the rest of device-worker/ is below them.',
      severity: 'error',
      from: { path: '^device-worker/', pathNot: ['^device-worker/worker\\.ts$', '^device-worker/pdd/', ...TESTS] },
      to: { path: '^activities/' },
    },
    {
      name: 'pdd-never-imports-activities',
      comment: 'Page profiles and flows are what activities call; the contracts they share live in domain/.',
      severity: 'error',
      from: { path: '^device-worker/pdd/', pathNot: TESTS },
      to: { path: '^activities/' },
    },
    only(
      'phone-host',
      '^phone-host/',
      ['^domain/', '^platform/', '^temporal/', '^device-worker/adb/'],
      'A phone host watches ADB and supervises one device worker process per phone; it never loads admin/ or activities.',
    ),
    only(
      'sim',
      '^sim/',
      ['^domain/', '^platform/'],
      'The simulator shares no page-recognition code with the device worker.',
    ),
    {
      name: 'sim-domain-types-only',
      comment:
        'The simulator takes types from domain/, never behaviour: it must not agree with the worker by sharing code.',
      severity: 'error',
      from: { path: '^sim/', pathNot: TESTS },
      to: { path: '^domain/', dependencyTypesNot: ['type-only'] },
    },
    only('ui', '^ui/src/', ['^domain/'], 'The operator UI may use pure domain/ modules and nothing else of ours.'),
    {
      name: 'ui-builds-no-dictionary',
      comment:
        'domain/catalog-search.ts builds the traditional-to-simplified dictionary when it loads (~109 KB of it): the operator UI must not reach it, through any domain module, or every browser downloads and builds it.',
      severity: 'error',
      from: { path: '^ui/src/' },
      to: { path: '^domain/catalog-search\\.ts$', reachable: true },
    },
    only('migrations', '^migrations/', [], 'Migrations are append-only history; they import nothing of ours.'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|data|\\.tools|\\.jest-cache|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
