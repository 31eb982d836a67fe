import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  buildIdOf,
  loadWorkflowBundle,
  MissingWorkflowBundle,
  WORKFLOW_BUNDLE_FILE,
  workflowBundleStaleness,
} from '../../workers/workflow-bundle';
import { loginOperator, startTestAdmin, tempDataDir, type TestAdmin } from '../harness';

/**
 * The admin worker runs the bundle built at build time (docs/versioning.md), under the build id
 * derived from its hash, and does not bundle again when that file is current.
 */
describe('the admin worker runs dist/workflow-bundle.js under its build id', () => {
  let admin: TestAdmin | undefined;
  afterAll(async () => {
    await admin?.close();
  });

  it('every workflow task of a system check is completed by the build id of the bundle file, which the start left untouched', async () => {
    expect(workflowBundleStaleness()).toBeNull();
    const before = fs.statSync(WORKFLOW_BUNDLE_FILE).mtimeMs;
    // no bundle path given: the production default, as `npm run admin` starts it
    admin = await startTestAdmin({ workflowBundlePath: undefined });
    const op = await loginOperator(admin);
    const res = await op.post('/api/system/checks', { hold_seconds: 0 });
    expect(res.status).toBe(200);
    const { workflow_id } = res.body as { workflow_id: string };

    const history = await (await admin.temporal.client()).workflow.getHandle(workflow_id).fetchHistory();
    const buildIds = (history.events ?? []).filter((e) => e.workflowTaskCompletedEventAttributes).map((e) => e.workflowTaskCompletedEventAttributes?.workerVersion?.buildId);
    expect(buildIds.length).toBeGreaterThan(0);
    expect(new Set(buildIds)).toEqual(new Set([buildIdOf(fs.readFileSync(WORKFLOW_BUNDLE_FILE))]));
    expect(fs.statSync(WORKFLOW_BUNDLE_FILE).mtimeMs).toBe(before);
  });

  it('a bundle that is missing or older than a workflow source is named stale, with the reason', () => {
    const dir = tempDataDir('bundle');
    expect(workflowBundleStaleness(path.join(dir, 'absent.js'))).toMatch(/absent\.js is missing/);
    const old = path.join(dir, 'old.js');
    fs.writeFileSync(old, '');
    fs.utimesSync(old, new Date(0), new Date(0));
    expect(workflowBundleStaleness(old)).toMatch(/^(workflows|domain)\/.+ is newer than the bundle$|^package-lock\.json is newer than the bundle$/);
  });

  it('the admin never bundles: a missing bundle stops its start with what to run', async () => {
    const missing = path.join(tempDataDir('bundle'), 'none.js');
    expect(() => loadWorkflowBundle(missing)).toThrow(MissingWorkflowBundle);
    expect(() => loadWorkflowBundle(missing)).toThrow(/npm run build/);
    const root = path.resolve(__dirname, '../..');
    const run = promisify(execFile);
    const dataDir = tempDataDir('bundle-admin');
    const failed = await run(process.execPath, ['--import', 'tsx', path.join(root, 'workers/main-admin.ts')], {
      env: {
        ...process.env,
        CMAUTOBUY_DATA_DIR: dataDir,
        CMAUTOBUY_ADMIN_PORT: '0',
        CMAUTOBUY_WORKFLOW_BUNDLE: missing,
        CMAUTOBUY_TEMPORAL_ADDRESS: '127.0.0.1:9',
      },
    }).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(`no workflow bundle at ${missing}: run \`npm run build\``);
    expect(fs.existsSync(missing)).toBe(false);
  });
});
