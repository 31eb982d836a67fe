import { createHash } from 'node:crypto';
import { DEVICE_ACTS } from '../../device-worker/pdd/session/inputs';
import { PURCHASE_STEPS } from '../../domain/purchase/workflow-types';
import { CHAOS_PROCESSES } from '../../platform/chaos';

/**
 * The chaos matrix, read off the code (docs/chaos.md): every step the purchase workflow's state
 * names (its first activity is the boundary into it), and just before and just after every act the
 * phone session sends — crossed with every process of `npm start` and the phone's ADB link; with
 * `--cluster`, also the cluster's own services and its database.
 */
export const CLUSTER_PROCESSES = ['history', 'matching', 'frontend', 'postgres'] as const;
export type KillTarget = (typeof CHAOS_PROCESSES)[number] | 'adb-link' | (typeof CLUSTER_PROCESSES)[number];

export interface ChaosPair {
  /** a workflow step (`fence`) or an act on the phone with its side (`submit_tap:before`) */
  step: string;
  process: KillTarget;
}

/** Acts only the collect sends: a purchase never passes them. */
const COLLECT_ONLY_ACTS: readonly string[] = ['back'];

export function chaosSteps(): string[] {
  const acts = DEVICE_ACTS.filter((a) => !COLLECT_ONLY_ACTS.includes(a));
  return [...PURCHASE_STEPS, ...acts.flatMap((act) => [`${act}:before`, `${act}:after`])];
}

export function chaosProcesses(cluster: boolean): KillTarget[] {
  // on a cluster the Temporal server is its services and its database, each killed on its own
  const own = CHAOS_PROCESSES.filter((p) => !cluster || p !== 'temporal');
  return [...own, 'adb-link', ...(cluster ? CLUSTER_PROCESSES : [])];
}

export function chaosMatrix(cluster: boolean): ChaosPair[] {
  const processes = chaosProcesses(cluster);
  return chaosSteps().flatMap((step) => processes.map((process) => ({ step, process })));
}

/**
 * `n` pairs chosen by `seed` (CI gives its commit id): a different sample each commit, the same
 * one for the same commit, so every pair is tried over enough commits and a failure reruns as it ran.
 */
export function samplePairs(all: ChaosPair[], n: number, seed: string): ChaosPair[] {
  const rank = (p: ChaosPair) => createHash('sha256').update(`${seed}\0${p.step}\0${p.process}`).digest('hex');
  return [...all].sort((a, b) => rank(a).localeCompare(rank(b))).slice(0, Math.max(0, n));
}

/** `--only STEP:PROCESS` (a step with its side has two colons: `submit_tap:before:phone-host`). */
export function parseOnly(text: string, all: ChaosPair[]): ChaosPair {
  const cut = text.lastIndexOf(':');
  const pair = { step: text.slice(0, cut), process: text.slice(cut + 1) };
  const found = all.find((p) => p.step === pair.step && p.process === pair.process);
  if (!found)
    throw new Error(
      `--only ${text}: not a pair of the matrix; steps: ${[...new Set(all.map((p) => p.step))].join(', ')}; processes: ${[
        ...new Set(all.map((p) => p.process)),
      ].join(', ')}`,
    );
  return found;
}
