// @ts-check
/**
 * The dependency rules of the repository: which folder may import which (besides itself and
 * npm packages), and no cycles anywhere. The production folders are listed from the top down and
 * every arrow points down: a folder imports only folders below it (`import type` of a workflow
 * aside), and none imports workers/ or a dev folder. `npm run lint` and `npm test` run this
 * (`npm run depcruise`); test/architecture/dependency-rules.test.ts proves the rules bite.
 *
 * | folder            | may import                                                                |
 * |-------------------|---------------------------------------------------------------------------|
 * | workers/          | every production folder: each process, its Temporal worker and what       |
 * |                   | the worker registers (activities, the workflow bundle)                    |
 * | activities/admin  | domain/, platform/, admin/, migrations/payloads/                          |
 * | activities/device | domain/, platform/, device-worker/, migrations/payloads/                  |
 * | workflows/        | domain/, migrations/payloads/; `import type` only from activities/        |
 * | admin/            | domain/, platform/, temporal/, migrations/; `import type` from workflows/ |
 * | phone-host/       | domain/, platform/, temporal/, device-worker/adb/                         |
 * | device-worker/    | domain/, platform/, temporal/                                             |
 * | temporal/         | domain/, platform/                                                        |
 * | platform/         | domain/                                                                   |
 * | domain/           | nothing of ours (pure; npm packages such as @temporalio/workflow)         |
 * | sim/              | domain/ (types only), platform/                                           |
 * | ui/src/           | domain/                                                                   |
 * | migrations/       | nothing of ours                                                           |
 * scripts/, bench/, test/, every *.test.ts and testkit.ts (test-only set-up): anything.
 *
 * The `only` rules below say it folder by folder; the named rules say the arrows that matter by
 * name, so the error gives the reason:
 * - only workers/ registers activities: no process folder below it imports activities/;
 * - below workers/, workflows/ is named by type only (a Temporal client naming what it starts);
 *   what a workflow and its callers share at run time (update, query and signal definitions,
 *   step lists, constants) lives in domain/contracts/;
 * - activities/ never imports workflows/: a workflow calls activities, never the other way;
 * - nothing production imports workers/: the composition sits on top;
 * - only admin/http/ and the admin's HTTP composition (admin/server.ts) import admin/http/:
 *   services refuse with domain/api-error.ts and know nothing of HTTP (admin-http-on-top);
 * - no production folder imports scripts/: what a process and a dev script both need (child
 *   processes, port holders) lives in platform/.
 */

const OURS =
  '^(domain|platform|temporal|workflows|activities|admin|device-worker|workers|phone-host|sim|ui|migrations|scripts|bench|test)/';
/** The folders of the production processes (admin, admin worker, device worker, phone host). */
const PRODUCTION = '^(domain|platform|temporal|workflows|activities|admin|device-worker|workers|phone-host)/';
/** The production folders below workers/ that neither register activities nor load workflow code. */
const BELOW_WORKERS = '^(domain|platform|temporal|admin|device-worker|phone-host)/';
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

/**
 * No import from `from` (but for `except`) to `to`. Tests and testkits are not built into dist/
 * (tsconfig.build.json), so they may.
 */
function never(name, from, to, comment, except = []) {
  return { name, comment, severity: 'error', from: { path: from, pathNot: [...except, ...TESTS] }, to };
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
    never(
      'production-never-imports-scripts',
      PRODUCTION,
      { path: '^scripts/' },
      'A production process never leans on a dev script: what both need (child processes, restart with back-off, port holders) lives in platform/.',
    ),
    never(
      'workers-are-the-top',
      PRODUCTION,
      { path: '^workers/' },
      'workers/ composes the processes (their Temporal workers, the activities they register, the workflow bundle); nothing production imports it, or an arrow would point up.',
      ['^workers/'],
    ),
    never(
      'only-workers-register-activities',
      BELOW_WORKERS,
      { path: '^activities/' },
      'Activities are what a worker registers, so only workers/ imports them; what an activity shares with its callers (names, inputs, contracts) lives in domain/contracts/.',
    ),
    never(
      'workflows-named-by-type-only',
      BELOW_WORKERS,
      { path: '^workflows/', dependencyTypesNot: ['type-only'] },
      'Below workers/ a workflow is named by `import type` only (the client naming what it starts); update, query and signal definitions and other run-time names both sides use live in domain/contracts/.',
    ),
    never(
      'admin-http-on-top',
      PRODUCTION,
      { path: '^admin/http/' },
      'admin/http/ is the top of the admin: services refuse with an ApiError of a kind (domain/api-error.ts) and admin/http/errors.ts alone gives it its status. Only admin/http/ itself and the composition that serves it (admin/server.ts) import it.',
      ['^admin/http/', '^admin/server\\.ts$', '^workers/'],
    ),
    never(
      'activities-never-import-workflows',
      '^activities/',
      { path: '^workflows/' },
      'A workflow calls activities, never the other way: an activity takes what it shares with a workflow from domain/contracts/.',
    ),
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
      ['^domain/', '^activities/', '^migrations/payloads/'],
      'Workflows are deterministic: domain/, activity types and the payload migrations that read recorded inputs.',
    ),
    never(
      'workflows-type-only-activities',
      '^workflows/',
      { path: '^activities/', dependencyTypesNot: ['type-only'] },
      'A workflow may name activity types but never load activity code into the workflow bundle.',
    ),
    only(
      'activities-admin',
      '^activities/admin/',
      ['^domain/', '^platform/', '^admin/', '^migrations/payloads/'],
      'Admin activities touch the admin DB through admin/; a recorded input reads through migrations/payloads/.',
    ),
    only(
      'activities-device',
      '^activities/device/',
      ['^domain/', '^platform/', '^device-worker/', '^migrations/payloads/'],
      'Device activities drive a phone through device-worker/; a recorded input reads through migrations/payloads/.',
    ),
    only(
      'admin',
      '^admin/',
      ['^domain/', '^platform/', '^temporal/', '^migrations/', '^workflows/'],
      'The admin process: never the device side; workflows/ by type only (workflows-named-by-type-only).',
    ),
    only(
      'device-worker',
      '^device-worker/',
      ['^domain/', '^platform/', '^temporal/'],
      'The device worker never imports admin/, workflows/, activities/ or the simulator.',
    ),
    only(
      'phone-host',
      '^phone-host/',
      ['^domain/', '^platform/', '^temporal/', '^device-worker/adb/'],
      'A phone host watches ADB and supervises one device worker process per phone; it never loads admin/ or activities.',
    ),
    only(
      'workers',
      '^workers/',
      [PRODUCTION],
      'workers/ composes the production processes: it may import every production folder, never the simulator or a dev folder.',
    ),
    only(
      'sim',
      '^sim/',
      ['^domain/', '^platform/'],
      'The simulator shares no page-recognition code with the device worker.',
    ),
    never(
      'sim-domain-types-only',
      '^sim/',
      { path: '^domain/', dependencyTypesNot: ['type-only'] },
      'The simulator takes types from domain/, never behaviour: it must not agree with the worker by sharing code.',
    ),
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
