import path from 'node:path';
import { bundleWorkflows, WORKFLOW_BUNDLE_FILE, workflowBundleStaleness } from '../workers/workflow-bundle';

/**
 * Bundles the workflows once, at build time, into dist/workflow-bundle.js — the code the admin
 * worker runs and the replay test checks (docs/versioning.md). `npm run build` and `npm test`
 * always rebuild; `npm start` passes `--if-stale` and keeps a bundle newer than its sources.
 */
async function main(): Promise<void> {
  const say = (line: string) => console.log(`[bundle] ${line}`);
  const relative = path.relative(process.cwd(), WORKFLOW_BUNDLE_FILE);
  if (process.argv.includes('--if-stale')) {
    const stale = workflowBundleStaleness();
    if (!stale) return say(`${relative} is up to date`);
    say(stale);
  }
  const bundle = await bundleWorkflows();
  say(`${relative} build id ${bundle.buildId}`);
}

main().catch((err: unknown) => {
  console.error(`[bundle] the workflows do not bundle: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
