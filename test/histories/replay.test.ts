import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { bundleWorkflows, ensureWorkflowBundle, readWorkflowBundle, WORKFLOWS_PATH, type WorkflowBundleFile } from '../../admin/temporal/workflow-bundle';
import '../harness';
import { temporalDataConverter } from '../../temporal/codec';

/**
 * Every recorded history (test/histories/*.json, written by record.ts) replays on the production
 * bundle: a change to workflows/ or to the domain code they import that would break the open
 * purchases after a deploy fails here first (docs/versioning.md).
 */
const DIR = __dirname;
const histories = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, workflowId: file.replace(/\.json$/, ''), history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8'))) }));

/**
 * What each named history is: every purchase ending, collect, one recorded before the attempt
 * moved ahead of CLAIMED, and two recorded after the release began to run beside the operator's
 * wait (the others, from before, keep that patch's old branch replaying).
 */
const ENDINGS = [
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
  'purchase-pre-attempt-first',
  'purchase-reconcile-matched',
  'purchase-reset',
  'purchase-resolved-created',
  'purchase-resolved-not-created',
  'purchase-succeeded-release-in-background',
  'purchase-succeeded',
];

async function productionBundle(): Promise<WorkflowBundleFile> {
  const built = process.env.CMAUTOBUY_TEST_WORKFLOW_BUNDLE;
  return built ? readWorkflowBundle(built) : await ensureWorkflowBundle({ info: () => {} });
}

/** Replays the named histories: name → null, or the replay's error. */
async function replay(options: ReplayWorkerOptions, names: string[]): Promise<Record<string, Error | null>> {
  const chosen = histories.filter((h) => names.includes(h.workflowId));
  expect(chosen.map((h) => h.workflowId).sort()).toEqual([...names].sort());
  const out: Record<string, Error | null> = {};
  for await (const result of Worker.runReplayHistories({ ...options, dataConverter: temporalDataConverter() }, chosen)) out[result.workflowId] = result.error ?? null;
  return out;
}

describe('recorded histories replay on the production bundle', () => {
  it('there is a history of every ending', () => {
    expect(histories.map((h) => h.workflowId)).toEqual(ENDINGS);
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
 * A reordering of released workflow code fails replay. The variants are the production purchase
 * with the `attempt-before-claimed` patch taken out one way or the other — exactly the change the
 * patch exists for.
 */
describe('a reordered purchase fails replay', () => {
  it('the attempt before CLAIMED without the patch: the history recorded with CLAIMED first is non-deterministic', async () => {
    const code = await purchaseVariant("patched('attempt-before-claimed')", 'true');
    const results = await replay({ workflowBundle: { code } }, ['purchase-pre-attempt-first']);
    expect(results['purchase-pre-attempt-first']).toBeInstanceOf(DeterminismViolationError);
  });

  it('CLAIMED before the attempt without the patch: the histories recorded with the attempt first are non-deterministic', async () => {
    const code = await purchaseVariant("patched('attempt-before-claimed')", 'false');
    const results = await replay({ workflowBundle: { code } }, ['purchase-succeeded', 'purchase-gate1-over-cap']);
    expect(results['purchase-succeeded']).toBeInstanceOf(DeterminismViolationError);
    expect(results['purchase-gate1-over-cap']).toBeInstanceOf(DeterminismViolationError);
  });
});

/**
 * A bundle of a copy of workflows/ in a temp dir with one change to purchase.ts; imports that
 * leave workflows/ point back at the repository, packages resolve from its node_modules.
 */
async function purchaseVariant(from: string, to: string): Promise<string> {
  const workflowsDir = path.dirname(WORKFLOWS_PATH);
  const root = path.dirname(workflowsDir);
  const tmp = fs.mkdtempSync(path.join(process.env.CMAUTOBUY_TEST_TMP ?? os.tmpdir(), 'reordered-'));
  const copy = path.join(tmp, 'workflows');
  fs.mkdirSync(copy);
  for (const name of fs.readdirSync(workflowsDir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
    let text = fs.readFileSync(path.join(workflowsDir, name), 'utf8').replace(/from '\.\.\//g, `from '${root}/`);
    if (name === 'purchase.ts') {
      expect(text).toContain(from);
      text = text.split(from).join(to);
    }
    fs.writeFileSync(path.join(copy, name), text);
  }
  const bundle = await bundleWorkflows({
    workflowsPath: path.join(copy, 'index.ts'),
    outFile: path.join(tmp, 'workflow-bundle.js'),
    webpackConfigHook: (config) => ({ ...config, resolve: { ...config.resolve, modules: [...(config.resolve?.modules ?? []), path.join(root, 'node_modules')] } }),
  });
  return bundle.code;
}

/** The `data` of every payload in a history as JSON (base64). */
function payloadData(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(payloadData);
  if (node === null || typeof node !== 'object') return [];
  const o = node as Record<string, unknown>;
  const own = typeof o.data === 'string' && typeof o.metadata === 'object' ? [o.data] : [];
  return [...own, ...Object.values(o).flatMap(payloadData)];
}
