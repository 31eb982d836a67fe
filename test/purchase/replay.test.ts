import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { sharedTemporal } from '../harness';

/**
 * Purchases that ran to their end with an earlier build of workflows/purchase.ts (one per path:
 * paid, dry run, every kind of stop, cancel, reconcile) must replay on today's code: a running
 * workflow replays its history after every worker restart, so a change that schedules a different
 * command — another activity, timer, upsert, or the same ones in another order — would break it.
 * When the workflow's behaviour has to change, that change needs a patch (`patched()`), and the
 * histories here stay.
 */
const DIR = path.join(__dirname, 'histories');

describe('purchase workflow histories replay on the current code', () => {
  const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

  it('has a recorded history for every ending', () => {
    expect(files).toEqual(
      expect.arrayContaining(['live-paid.json', 'dry-run.json', 'stop-captcha-reset.json', 'stop-gate1-cancel.json', 'device-error-reset.json', 'reconcile-not-created.json', 'handoff-reconciled-paid.json', 'pending-cancel.json']),
    );
  });

  it.each(files)('%s replays without nondeterminism', async (file) => {
    const history = historyFromJSON(JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8')));
    await Worker.runReplayHistory({ workflowBundle: { codePath: sharedTemporal().workflowBundlePath }, replayName: file }, history, `replay-${file}`);
  });
});
