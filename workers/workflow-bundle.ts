import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, type BundleOptions } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../temporal/codec';

/**
 * The workflow code the admin worker runs, bundled once at build time (docs/versioning.md).
 * A running worker never re-bundles: the bundle on disk is what it runs and what the replay test
 * checks, and its hash is the worker's build id, so the Temporal Web UI shows which code ran
 * each workflow task.
 */

// Resolved, not spelled out: `index.ts` under tsx, `index.js` in a compiled build.
export const WORKFLOWS_PATH = require.resolve('../workflows');

const ROOT = path.resolve(path.dirname(WORKFLOWS_PATH), '..');
/** The workflow interceptors every bundle carries (its variants in the tests too). */
const WORKFLOW_INTERCEPTORS_PATH = require.resolve('../workflows/tracing');
// A compiled build runs from dist/ itself; the bundle sits beside its output, git-ignored either way.
const OUT_DIR = path.basename(ROOT) === 'dist' ? ROOT : path.join(ROOT, 'dist');
export const WORKFLOW_BUNDLE_FILE = path.join(OUT_DIR, 'workflow-bundle.js');

/**
 * What goes into the bundle: the workflows, the domain code they import (it IS workflow code),
 * the payload migrations they read recorded inputs through (migrations/payloads/), the failure
 * converter of every client and worker (temporal/codec/failure-converter.ts: a workflow's own
 * failures are encoded inside the sandbox) and the lock file (the SDK's own workflow runtime is
 * bundled too).
 */
const SOURCES = [
  path.join(ROOT, 'workflows'),
  path.join(ROOT, 'domain'),
  path.join(ROOT, 'migrations', 'payloads'),
  FAILURE_CONVERTER_PATH,
  path.join(ROOT, 'package-lock.json'),
];

export interface WorkflowBundleFile {
  codePath: string;
  /** the bundle as read once: a rebuild on disk never reaches a running worker under the old build id */
  code: string;
  /** the first 12 hex digits of the bundle's sha256 */
  buildId: string;
}

interface BundleLog {
  info(fields: object, message: string): void;
}

export function buildIdOf(code: string | Buffer): string {
  return createHash('sha256').update(code).digest('hex').slice(0, 12);
}

export class MissingWorkflowBundle extends Error {
  override readonly name = 'MissingWorkflowBundle';
}

/**
 * What the admin worker runs: the prebuilt bundle, never one made at runtime (a production host
 * may not even have webpack's inputs, and a bundle built on the fly would run code nobody
 * replayed). Missing, it says what to run.
 */
export function loadWorkflowBundle(codePath = WORKFLOW_BUNDLE_FILE): WorkflowBundleFile {
  if (!fs.existsSync(codePath))
    throw new MissingWorkflowBundle(
      `no workflow bundle at ${codePath}: run \`npm run build\` (or \`npm run bundle:workflows\`) before starting the admin, ` +
        'or point CMAUTOBUY_WORKFLOW_BUNDLE at a prebuilt one (docs/versioning.md)',
    );
  return readWorkflowBundle(codePath);
}

/** The bundle file and its build id, as a worker or the replay test loads it. */
export function readWorkflowBundle(codePath = WORKFLOW_BUNDLE_FILE): WorkflowBundleFile {
  const code = fs.readFileSync(codePath, 'utf8');
  return { codePath, code, buildId: buildIdOf(code) };
}

/**
 * Bundles `workflowsPath` (default: the production entry) into `outFile`. Written to a temp file
 * and renamed, so a worker starting meanwhile never loads half a bundle.
 */
export async function bundleWorkflows(
  opts: {
    outFile?: string;
    workflowsPath?: string;
    webpackConfigHook?: BundleOptions['webpackConfigHook'];
    /** the workflow interceptor modules (tests swap them); default the production one */
    interceptorModules?: string[];
  } = {},
): Promise<WorkflowBundleFile> {
  const outFile = opts.outFile ?? WORKFLOW_BUNDLE_FILE;
  const { code } = await bundleWorkflowCode({
    workflowsPath: opts.workflowsPath ?? WORKFLOWS_PATH,
    // the workflow's side of tracing: a sink call, no command (temporal/tracing.ts)
    workflowInterceptorModules: opts.interceptorModules ?? [WORKFLOW_INTERCEPTORS_PATH],
    failureConverterPath: FAILURE_CONVERTER_PATH,
    logger: quietBundlerLogger(),
    ...(opts.webpackConfigHook ? { webpackConfigHook: opts.webpackConfigHook } : {}),
  });
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  const tmp = `${outFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, code);
  fs.renameSync(tmp, outFile);
  return { codePath: outFile, code, buildId: buildIdOf(code) };
}

/** Why the production bundle must be (re)built, or null when it is newer than every source. */
export function workflowBundleStaleness(codePath = WORKFLOW_BUNDLE_FILE): string | null {
  let builtAt: number;
  try {
    builtAt = fs.statSync(codePath).mtimeMs;
  } catch {
    return `${codePath} is missing`;
  }
  const newer = SOURCES.flatMap(filesBelow).find((file) => fs.statSync(file).mtimeMs > builtAt);
  return newer ? `${path.relative(ROOT, newer)} is newer than the bundle` : null;
}

/**
 * The production bundle, built first when it is missing or older than its sources — for the
 * test set-up and scripts only; the admin loads a prebuilt one (loadWorkflowBundle).
 */
export async function ensureWorkflowBundle(log: BundleLog): Promise<WorkflowBundleFile> {
  const stale = workflowBundleStaleness();
  if (!stale) return readWorkflowBundle();
  log.info({ reason: stale }, 'bundling the workflows (scripts/bundle-workflows.ts)');
  const bundle = await bundleWorkflows();
  log.info({ codePath: bundle.codePath, buildId: bundle.buildId }, 'workflow bundle written');
  return bundle;
}

function filesBelow(p: string): string[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(p);
  } catch {
    return [];
  }
  if (!stat.isDirectory()) return [p];
  // tests beside the domain code are not bundled
  return fs
    .readdirSync(p)
    .filter((name) => !name.endsWith('.test.ts'))
    .flatMap((name) => filesBelow(path.join(p, name)));
}

/** webpack's progress lines are noise; its errors are the message a broken workflow needs. */
function quietBundlerLogger() {
  const noop = () => {};
  return {
    trace: noop,
    debug: noop,
    info: noop,
    warn: noop,
    error: (m: string) => process.stderr.write(`[bundler] ${m}\n`),
    log: noop,
  };
}
