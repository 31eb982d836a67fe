import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import {
  bundleWorkflows,
  ensureWorkflowBundle,
  readWorkflowBundle,
  WORKFLOWS_PATH,
  type WorkflowBundleFile,
} from '../../workers/workflow-bundle';
import '../harness';
import { temporalDataConverter } from '../../temporal/codec';
import { workflowsVariant } from './variant';

/**
 * Every recorded history (test/histories/*.json, written by record.ts) replays on the production
 * bundle: a change to workflows/ or to the domain code they import that would break the open
 * purchases after a deploy fails here first (docs/versioning.md).
 */
const DIR = __dirname;
/** Histories of branches a retired patch deleted (RETIRED_BRANCHES): they must fail, not replay. */
const RETIRED_DIR = path.join(DIR, 'retired');
type Recorded = { file: string; workflowId: string; history: ReturnType<typeof historyFromJSON> };
const historiesIn = (dir: string): Recorded[] =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, workflowId: file.replace(/\.json$/, ''), history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))) }));
const histories = historiesIn(DIR);
const retired = historiesIn(RETIRED_DIR);

/**
 * Where each history comes from: record.ts (the whole stack: simulator, device worker, admin) or
 * the fake-activity workflow tests in test/workflows/ run with CMAUTOBUY_RECORD_HISTORIES=1
 * (docs/versioning.md). Every file here is one of these, and every one of these is a file.
 */
const RECORDED_THROUGH_THE_STACK = [
  'collect',
  'purchase-cancel-in-prepare',
  'purchase-cancel',
  'purchase-captcha',
  'purchase-cashier-unmatched',
  'purchase-device-error',
  'purchase-dry-run',
  'purchase-expired',
  'purchase-fence-unavailable',
  'purchase-gate1-over-cap',
  'purchase-gate2-over-cap',
  'purchase-gate3-price-changed',
  'purchase-reconcile-matched',
  'purchase-reset',
  'purchase-resolved-created',
  'purchase-resolved-not-created',
  'purchase-succeeded-release-in-background',
  'purchase-succeeded',
];
const RECORDED_WITH_FAKE_ACTIVITIES = [
  // test/workflows/purchase-never-failed.test.ts
  'purchase-admin-failed-before-fence',
  'purchase-admin-failed-after-fence',
  'purchase-resolve-write-failed',
  'purchase-revoked-canceled',
  'purchase-fence-revoked',
  'purchase-cashier-zero-orders',
  'purchase-cashier-two-orders',
  'purchase-mark-paid-once',
  // test/workflows/operator-answers.test.ts
  'purchase-fence-refused-canceled',
  'purchase-tap-failed',
  'purchase-mark-paid-write-failed',
  'purchase-gates-rejected-reset-write-failed',
  'purchase-resolve-superseded',
  'purchase-payment-handoff',
  'purchase-observe-failed',
  'purchase-dry-run-released',
  'purchase-cancel-while-claiming',
  'purchase-untapped-canceled',
  // test/workflows/operator-wait.test.ts (time-skipping)
  'purchase-release-given-up',
  'purchase-admin-outage-before-fence',
  'purchase-admin-outage-after-fence',
  'purchase-operator-wait-ended',
  // test/workflows/other-workflows.test.ts
  'system-check',
  'syb-sync',
  'device-check',
  'collect-succeeded',
  'collect-rejected',
  'payment-check',
  // test/workflows/held-phone.test.ts
  'purchase-fence-release-gate',
  'purchase-reconcile-window-ledger',
  'purchase-dry-run-released-at-panel',
  'purchase-held-progress-local',
];
/**
 * Recorded by test/workflows/held-phone.test.ts (as purchase-held-progress-local) while every
 * retired patch was still a `patched()` with both branches: its markers are not deprecated. It is
 * what an open purchase from that stage looks like — it replays on the `deprecatePatch` code, and
 * not on the code without the calls (below).
 */
const RECORDED_BEFORE_DEPRECATION = ['purchase-before-deprecation'];
const ENDINGS = [...RECORDED_THROUGH_THE_STACK, ...RECORDED_WITH_FAKE_ACTIVITIES, ...RECORDED_BEFORE_DEPRECATION].sort();

/**
 * Both branches of every `patched()` in workflows/: `taken`, histories that recorded the patch's
 * marker (the new code), and `old`, histories without it that pass the patched place (the code from
 * before, which open workflows may still be on). Each patch is taken out both ways below: the old
 * code alone fails a `taken` history, and the new code alone fails an `old` one — unless the
 * patch is in SAME_COMMANDS. None today: every patch has moved on to `deprecatePatch`
 * (RETIRED_BRANCHES); the next `patched()` gets its entry here.
 */
const BRANCHES: Record<string, { taken: string[]; old: string[] }> = {};

/**
 * The patches whose old branch was deleted (docs/versioning.md "Retiring a patch"), each with the
 * histories of that old branch, kept in test/histories/retired/: recorded without the patch's
 * marker, every one now FAILS on the production bundle with a DeterminismViolationError — the
 * proof the old branch is gone, and why its deletion waited for `open_before` 0. Each id is at
 * stage 2 (`deprecatePatch` where `patched` was) except `attempt-before-claimed`, whose only call
 * sat inside the old branch of `held-progress-in-one` and went with it: no run since that patch
 * reaches it. For the SAME_COMMANDS ids a history fails only because it predates another patch
 * too; the ones that predate only them (`collect`) still replay, and stay in test/histories/.
 */
const RETIRED_BRANCHES: Record<string, string[]> = {
  'attempt-before-claimed': ['purchase-pre-attempt-first'],
  'cashier-needs-matched-order': ['purchase-cashier-old-branch'],
  'release-in-background': ['purchase-succeeded', 'purchase-dry-run', 'purchase-gate1-over-cap'],
  'operator-writes-in-update': ['purchase-succeeded', 'purchase-reset', 'purchase-resolved-created', 'purchase-resolved-not-created'],
  'admin-deadline-while-held': ['purchase-succeeded', 'purchase-fence-unavailable', 'purchase-captcha'],
  'release-deadline': ['purchase-succeeded'],
  'device-name-attribute': ['purchase-device-name-old-branch', 'purchase-succeeded'],
  'operator-wait-ends': [
    'purchase-operator-wait-old-branch',
    'purchase-succeeded-release-in-background',
    'purchase-succeeded',
    'purchase-reset',
    'purchase-cashier-unmatched',
  ],
  'fence-names-release-gate': ['purchase-fence-release-gate-old-branch'],
  'reconcile-window-from-ledger': ['purchase-reconcile-window-old-branch'],
  'held-progress-in-one': ['purchase-succeeded', 'purchase-dry-run-released', 'purchase-fence-refused-canceled'],
  'held-progress-local': ['purchase-held-progress-in-one'],
  'dry-run-releases-at-panel': ['purchase-dry-run-released', 'purchase-dry-run'],
  'collect-status-as-row': [],
};
/** Retired without a `deprecatePatch`: the call went with the enclosing patch's old branch. */
const REMOVED_WITH = { 'attempt-before-claimed': 'held-progress-in-one' };

/**
 * The patches whose branches ask for the same commands — they differ only where replay does not
 * look (Temporal compares each command's kind and id: not an activity's options or input, not a
 * search attribute's value, not which workflow task asked for it) — so no history of their old
 * branch can fail on the new code alone. While such a patch is `patched()` its old branch is kept
 * for what running workflows do, not for replay, and the test below checks the claim itself: the
 * new code alone replays every old history. Once retired, no replay can tell its old branch gone
 * (docs/versioning.md: count from the deploy instead); `collect`, recorded before
 * `collect-status-as-row` and `release-deadline`, replays on their deprecated code.
 */
const SAME_COMMANDS: Record<string, string> = {
  'release-in-background': 'the release is asked for in the same order; only which workflow task awaits it moves',
  'admin-deadline-while-held': "an admin activity's schedule-to-close timeout",
  'release-deadline': "the release's schedule-to-close timeout",
  'fence-names-release-gate': 'the reason code inside the status write',
  'collect-status-as-row': "the TaskStatus search attribute's value",
};

async function productionBundle(): Promise<WorkflowBundleFile> {
  const built = process.env.CMAUTOBUY_TEST_WORKFLOW_BUNDLE;
  return built ? readWorkflowBundle(built) : await ensureWorkflowBundle({ info: () => {} });
}

/** Replays the named histories (of test/histories/, or of `from`): name → null, or the replay's error. */
async function replay(options: ReplayWorkerOptions, names: string[], from = histories): Promise<Record<string, Error | null>> {
  const chosen = from.filter((h) => names.includes(h.workflowId));
  expect(chosen.map((h) => h.workflowId).sort()).toEqual([...names].sort());
  const out: Record<string, Error | null> = {};
  for await (const result of Worker.runReplayHistories({ ...options, dataConverter: temporalDataConverter() }, chosen)) out[result.workflowId] = result.error ?? null;
  return out;
}

describe('recorded histories replay on the production bundle', () => {
  it('there is a history of every ending', () => {
    expect(histories.map((h) => h.workflowId).sort()).toEqual(ENDINGS);
  });

  it('every patch in workflows/ has histories of both its branches', () => {
    const ids = [...new Set([...workflowsSource().matchAll(/\bpatched\('([^']+)'\)/g)].map((m) => m[1]!))].sort();
    expect(ids).toEqual(Object.keys(BRANCHES).sort());
    for (const [id, { taken, old }] of Object.entries(BRANCHES)) {
      expect({ id, taken: taken.length > 0, old: old.length > 0 }).toEqual({ id, taken: true, old: true });
      for (const name of taken) expect({ id, name, marker: patchesOf(name).includes(id) }).toEqual({ id, name, marker: true });
      for (const name of old) expect({ id, name, marker: patchesOf(name).includes(id) }).toEqual({ id, name, marker: false });
    }
  });

  it('every exported workflow type has a history', () => {
    const index = fs.readFileSync(WORKFLOWS_PATH.replace(/\.js$/, '.ts'), 'utf8');
    const exported = [...index.matchAll(/export \{ (\w+) \}/g)].map((m) => m[1]!).sort();
    const recorded = new Set(histories.map((h) => h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name));
    expect(exported.filter((t) => !recorded.has(t))).toEqual([]);
    expect(exported.length).toBeGreaterThanOrEqual(5);
  });

  it('every history replays without a non-determinism error', async () => {
    const bundle = await productionBundle();
    const results = await replay({ workflowBundle: { code: bundle.code } }, ENDINGS);
    const failed = Object.entries(results).filter(([, err]) => err !== null);
    expect(failed.map(([name, err]) => `${name}: ${err?.name} ${err?.message}`)).toEqual([]);
    expect(Object.keys(results).sort()).toEqual([...ENDINGS].sort());
  });

  it('histories carry no screenshot and no large payload (they are committed to the repository)', () => {
    const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    for (const h of histories) {
      for (const data of payloadData(JSON.parse(fs.readFileSync(path.join(DIR, h.file), 'utf8')))) {
        const bytes = Buffer.from(data, 'base64');
        expect({ file: h.file, png: bytes.includes(PNG) || bytes.includes('iVBORw0KGgo'), large: bytes.length > 16_384 }).toEqual({ file: h.file, png: false, large: false });
      }
    }
  });
});

/**
 * A patch taken out either way fails replay: the code from before alone (the patch always false)
 * fails a history that took the new branch, and the new code alone (always true) fails a history
 * of the old one — a deliberate reorder of a patch's branches is caught before a deploy. For the
 * patches in SAME_COMMANDS the new code alone replays every old history instead.
 */
describe('each patch taken out fails replay, both ways', () => {
  const patchTakenOut = async (id: string) => {
    const { taken, old } = BRANCHES[id]!;
    const onlyOld = await replay({ workflowBundle: { code: (await workflowsVariant(`patched('${id}')`, 'false')).code } }, taken);
    expect(taken.filter((name) => onlyOld[name] instanceof DeterminismViolationError)).not.toEqual([]);
    const onlyNew = await replay({ workflowBundle: { code: (await workflowsVariant(`patched('${id}')`, 'true')).code } }, old);
    const failed = old.filter((name) => onlyNew[name] instanceof DeterminismViolationError);
    if (id in SAME_COMMANDS) expect({ id, failed }).toEqual({ id, failed: [] });
    else expect({ id, failed: failed.length > 0 }).toEqual({ id, failed: true });
  };
  // a loop, not it.each: with no patch at stage 1 there is nothing to take out
  for (const id of Object.keys(BRANCHES)) it(id, () => patchTakenOut(id));

  it('the patches that ask for the same commands are patches, or retired ones', () => {
    expect(Object.keys(SAME_COMMANDS).filter((id) => !(id in BRANCHES) && !(id in RETIRED_BRANCHES))).toEqual([]);
  });
});

/**
 * Stage 2 of a retirement (docs/versioning.md "Retiring a patch"): the old branch deleted,
 * `deprecatePatch(id)` where `patched(id)` was. Histories with the marker replay (above, every
 * history, among them one from the `patched` stage); the histories of the old branch fail.
 */
describe('retired branches: the deprecated code', () => {
  const deprecatedIds = () => [...new Set([...workflowsSource().matchAll(/\bdeprecatePatch\('([^']+)'\)/g)].map((m) => m[1]!))].sort();

  it('every deprecatePatch in workflows/ is a retired branch; a retired id without one went with its enclosing branch', () => {
    const ids = deprecatedIds();
    const removed = Object.keys(REMOVED_WITH);
    expect(ids).toEqual(Object.keys(RETIRED_BRANCHES).filter((id) => !removed.includes(id)).sort());
    for (const [id, enclosing] of Object.entries(REMOVED_WITH)) expect({ id, enclosing, deprecated: ids.includes(enclosing) }).toEqual({ id, enclosing, deprecated: true });
  });

  it('test/histories/retired/ holds exactly the listed histories, each recorded without the marker it is listed under', () => {
    const listed = [...new Set(Object.values(RETIRED_BRANCHES).flat())].sort();
    expect(retired.map((h) => h.workflowId).sort()).toEqual(listed);
    for (const [id, names] of Object.entries(RETIRED_BRANCHES))
      for (const name of names) expect({ id, name, marker: markersOf(name, retired).some((m) => m.id === id) }).toEqual({ id, name, marker: false });
  });

  it('every retired history fails on the production bundle with a non-determinism error', async () => {
    const bundle = await productionBundle();
    const names = retired.map((h) => h.workflowId);
    const results = await replay({ workflowBundle: { code: bundle.code } }, names, retired);
    expect(names.filter((name) => !(results[name] instanceof DeterminismViolationError))).toEqual([]);
  });

  it('every deprecated id has a history recorded through its deprecatePatch, for the next stage', () => {
    for (const id of deprecatedIds()) {
      const recorded = histories.filter((h) => markersOf(h.workflowId).some((m) => m.id === id && m.deprecated)).map((h) => h.workflowId);
      expect({ id, recorded: recorded.length > 0 }).toEqual({ id, recorded: true });
    }
  });
});

/**
 * Stage 3, tried before it is written: the code with every `deprecatePatch` call deleted replays
 * every history whose markers all say `deprecated` (or that has none), and fails one from the
 * `patched` stage — why the calls stay until no open workflow predates the deprecation.
 */
describe('retired branches: the code without the deprecatePatch calls', () => {
  it('replays the histories recorded with deprecatePatch, not those from the patched stage', async () => {
    const { code } = await workflowsVariant(/\bdeprecatePatch\('[^']+'\);/g, '');
    const fromPatched = histories.filter((h) => markersOf(h.workflowId).some((m) => !m.deprecated)).map((h) => h.workflowId).sort();
    expect(fromPatched).toEqual(expect.arrayContaining(RECORDED_BEFORE_DEPRECATION));
    const results = await replay({ workflowBundle: { code } }, ENDINGS);
    const failed = ENDINGS.filter((name) => results[name] !== null);
    expect(failed).toEqual(fromPatched);
    for (const name of failed) expect({ name, nondeterminism: results[name] instanceof DeterminismViolationError }).toEqual({ name, nondeterminism: true });
  });
});

/**
 * Why the bundle's tracing interceptor (workflows/tracing.ts) must not yield: an interceptor that
 * awaits before the workflow runs and before each activity is scheduled — as
 * @temporalio/interceptors-opentelemetry's workflow interceptors do — reorders the commands of one
 * activation (a claim cancelled as it is asked for, an update answered beside a status write), and
 * recorded purchases no longer replay. The production interceptor replays all (above).
 */
describe('a workflow interceptor that yields', () => {
  it('fails recorded purchases', async () => {
    const dir = fs.mkdtempSync(path.join(process.env.CMAUTOBUY_TEST_TMP ?? os.tmpdir(), 'yielding-'));
    const bundle = await bundleWorkflows({
      outFile: path.join(dir, 'workflow-bundle.js'),
      interceptorModules: [path.join(__dirname, 'yielding-interceptors.ts')],
    });
    const results = await replay({ workflowBundle: { code: bundle.code } }, ENDINGS);
    const failed = Object.entries(results).filter(([, err]) => err !== null).map(([name]) => name);
    expect(failed).toEqual(expect.arrayContaining(['purchase-cancel-in-prepare', 'purchase-cancel-while-claiming']));
  });
});

/** The patch ids of the markers a history recorded. */
function patchesOf(name: string): string[] {
  return markersOf(name).map((m) => m.id);
}

/** The patch markers a history recorded: `deprecated` when `deprecatePatch` wrote it. */
function markersOf(name: string, from = histories): { id: string; deprecated: boolean }[] {
  const h = from.find((x) => x.workflowId === name);
  if (!h) throw new Error(`no history ${name}`);
  return (h.history.events ?? []).flatMap((e) => {
    const m = e.markerRecordedEventAttributes;
    const data = m?.markerName === 'core_patch' ? m.details?.['patch-data']?.payloads?.[0]?.data : undefined;
    return data ? [JSON.parse(Buffer.from(data).toString('utf8')) as { id: string; deprecated: boolean }] : [];
  });
}

/** Every workflow source file, joined. */
function workflowsSource(): string {
  const dir = path.dirname(WORKFLOWS_PATH);
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
}

/** The `data` of every payload in a history as JSON (base64). */
function payloadData(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(payloadData);
  if (node === null || typeof node !== 'object') return [];
  const o = node as Record<string, unknown>;
  const own = typeof o.data === 'string' && typeof o.metadata === 'object' ? [o.data] : [];
  return [...own, ...Object.values(o).flatMap(payloadData)];
}
