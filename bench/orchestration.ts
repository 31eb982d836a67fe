import fs from 'node:fs';
import path from 'node:path';
import { draftDryRuns, startTasks, waitForTerminal } from './purchases';
import { cpuMsOf, startStack, type Stack } from './stack';
import { firstClaimWaits, handOverGaps, phoneSpans, workflowTimes } from './workflow-times';
import { percentile } from './stats';
import { round, showSpread, spread, type Spread } from './stats';
import type { BenchTemporal } from './temporal';

/**
 * Dry-run purchases through the whole stack with 1, 2, 4 and 8 phones, each phone's device
 * worker a process of its own (own data dir, own token). Each phone gets the same number of
 * purchases, all started at once, so a run measures the steady state of that many phones.
 *
 * The simulated phones answer with the `realistic` latency: a phone's time is then mostly
 * waiting, as a real phone's is, and the figures show what the admin and Temporal add per phone.
 * On the `zero` profile every process of the stack, the simulated phones included, competes for
 * the same cores, and the speed-up measures the machine's cores instead (docs/PERFORMANCE.md).
 *
 * - purchases per minute: purchases ÷ (last workflow closed − first workflow started);
 * - non-device time per purchase: phone time not spent inside a device activity, i.e.
 *   (Σ per phone (its last release − the batch's start) − Σ device activity time) ÷ purchases — a
 *   phone that has done its share and waits for the others to finish has no work, which is not
 *   time on the admin. Device activity time comes from Temporal history (ActivityTaskStarted →
 *   closed, on the `devices` and `device/<id>` queues).
 */
export interface OrchestrationRun {
  phones: number;
  purchases: number;
  wallMs: number;
  purchasesPerMin: number;
  deviceMsPerPurchase: number;
  nonDeviceMsPerPurchase: number;
  /** CPU time of every process (Temporal server, admin, simulator, device workers) per purchase */
  cpuMsPerPurchase: number;
  /** while a phone was held: workflow tasks (scheduled → completed) and admin activities, per purchase */
  heldWorkflowTaskMs: number;
  heldAdminActivityMs: number;
  /** while held, phone activities waiting for their device worker (scheduled → started), per purchase */
  heldDeviceQueueMs: number;
  /** median over the phones of the batch's first start → the phone's first claim starting */
  firstClaimMs: number;
  /** median time from a release closing to the next claim starting on the same phone */
  handOverMs: number;
}

export interface OrchestrationFigures {
  byPhones: Record<
    string,
    {
      purchasesPerMin: Spread;
      nonDeviceMs: Spread;
      deviceMs: Spread;
      cpuMs: Spread;
      heldWorkflowTaskMs: Spread;
      heldAdminActivityMs: Spread;
      handOverMs: Spread;
    }
  >;
  speedup8: number;
  json: { purchases_per_min: Record<string, number>; speedup_8: number; non_device_ms_per_purchase: number };
  rows: string[];
}

export async function benchOrchestration(opts: {
  temporal: BenchTemporal;
  root: string;
  phoneCounts: number[];
  perPhone: number;
  runs: number;
  say: (l: string) => void;
}): Promise<OrchestrationFigures> {
  const maxPhones = Math.max(...opts.phoneCounts);
  const root = path.join(opts.root, 'orchestration');
  fs.mkdirSync(root, { recursive: true });
  const stack = await startStack({
    root,
    temporal: { address: opts.temporal.address, namespace: opts.temporal.namespace },
    workflowBundlePath: opts.temporal.workflowBundlePath,
    phones: maxPhones,
    latency: 'realistic',
    adminPassword: 'bench-admin-password-0123',
  });
  const runs: OrchestrationRun[] = [];
  try {
    for (const phones of [...opts.phoneCounts].sort((a, b) => a - b)) {
      await stack.addPhoneHosts(phones - stack.hosts.length);
      for (let r = 0; r < opts.runs; r++) {
        const run = await oneRun(stack, opts.temporal, phones, phones * opts.perPhone);
        opts.say(
          `orchestration: ${phones} phone(s), ${run.purchases} purchases in ${(run.wallMs / 1000).toFixed(1)} s → ${run.purchasesPerMin.toFixed(1)}/min, non-device ${run.nonDeviceMsPerPurchase.toFixed(0)} ms/purchase (holding the phone: workflow tasks ${run.heldWorkflowTaskMs.toFixed(0)} ms, admin activities ${run.heldAdminActivityMs.toFixed(0)} ms, phone queues ${run.heldDeviceQueueMs.toFixed(0)} ms; first claim ${run.firstClaimMs.toFixed(0)} ms after the batch's start; hand-over ${run.handOverMs.toFixed(0)} ms), CPU ${run.cpuMsPerPurchase.toFixed(0)} ms/purchase`,
        );
        runs.push(run);
      }
    }
  } finally {
    await stack.close();
  }
  return summarize(runs);
}

async function oneRun(
  stack: Stack,
  temporal: BenchTemporal,
  phones: number,
  purchases: number,
): Promise<OrchestrationRun> {
  const drafts = await draftDryRuns(stack, purchases);
  const pids = [temporal.server.pid, ...stack.pids()];
  const cpuBefore = cpuMsOf(pids);
  await startTasks(stack.op, drafts);
  const ids = drafts.map((d) => d.task_id);
  const statuses = await waitForTerminal(stack.adminDbFile, ids, 60_000 + purchases * 30_000);
  const failed = [...statuses.entries()].filter(([, s]) => s !== 'DRY_RUN_PASSED');
  if (failed.length > 0)
    throw new Error(
      `${failed.length} purchases did not pass the dry run: ${failed
        .slice(0, 3)
        .map(([id, s]) => `${id} ${s}`)
        .join(', ')}`,
    );
  const cpu = cpuMsOf(pids) - cpuBefore;
  const times = await workflowTimes(temporal, stack.adminDbFile, ids);
  const wallMs = Math.max(...times.map((t) => t.closeMs)) - Math.min(...times.map((t) => t.startMs));
  const deviceMs = times.reduce((sum, t) => sum + t.deviceMs, 0);
  return {
    phones,
    purchases,
    wallMs,
    purchasesPerMin: (purchases / wallMs) * 60_000,
    deviceMsPerPurchase: deviceMs / purchases,
    nonDeviceMsPerPurchase: (phoneSpans(times).reduce((sum, span) => sum + span, 0) - deviceMs) / purchases,
    cpuMsPerPurchase: cpu / purchases,
    heldWorkflowTaskMs: times.reduce((sum, t) => sum + t.heldWorkflowTaskMs, 0) / purchases,
    heldAdminActivityMs: times.reduce((sum, t) => sum + t.heldAdminActivityMs, 0) / purchases,
    heldDeviceQueueMs: times.reduce((sum, t) => sum + t.heldDeviceQueueMs, 0) / purchases,
    firstClaimMs: percentile(firstClaimWaits(times), 50),
    // one purchase per phone has no hand-over: 0 then
    handOverMs: percentile(handOverGaps(times), 50) || 0,
  };
}

function summarize(runs: OrchestrationRun[]): OrchestrationFigures {
  const counts = [...new Set(runs.map((r) => r.phones))].sort((a, b) => a - b);
  const byPhones: OrchestrationFigures['byPhones'] = {};
  for (const n of counts) {
    const mine = runs.filter((r) => r.phones === n);
    byPhones[String(n)] = {
      purchasesPerMin: spread(mine.map((r) => r.purchasesPerMin)),
      nonDeviceMs: spread(mine.map((r) => r.nonDeviceMsPerPurchase)),
      deviceMs: spread(mine.map((r) => r.deviceMsPerPurchase)),
      cpuMs: spread(mine.map((r) => r.cpuMsPerPurchase)),
      heldWorkflowTaskMs: spread(mine.map((r) => r.heldWorkflowTaskMs)),
      heldAdminActivityMs: spread(mine.map((r) => r.heldAdminActivityMs)),
      handOverMs: spread(mine.map((r) => r.handOverMs)),
    };
  }
  const one = byPhones['1']?.purchasesPerMin.median ?? NaN;
  const most = byPhones[String(counts.at(-1))]!;
  const speedup8 = (byPhones['8']?.purchasesPerMin.median ?? NaN) / one;
  const rows = counts.map((n) => {
    const f = byPhones[String(n)]!;
    return `| ${n} | ${showSpread(f.purchasesPerMin)} | ${(f.purchasesPerMin.median / one).toFixed(2)}× | ${showSpread(f.deviceMs, 0)} | ${showSpread(f.nonDeviceMs, 0)} | ${showSpread(f.heldWorkflowTaskMs, 0)} | ${showSpread(f.heldAdminActivityMs, 0)} | ${showSpread(f.handOverMs, 0)} | ${showSpread(f.cpuMs, 0)} |`;
  });
  return {
    byPhones,
    speedup8,
    json: {
      purchases_per_min: Object.fromEntries(
        counts.map((n) => [String(n), round(byPhones[String(n)]!.purchasesPerMin.median)]),
      ),
      speedup_8: round(speedup8),
      // the figure at the most phones: where the admin and Temporal are busiest
      non_device_ms_per_purchase: Math.round(most.nonDeviceMs.median),
    },
    rows,
  };
}
