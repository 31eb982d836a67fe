/**
 * A purchase task's priority: which waiting task a free phone takes first. Higher first, then the
 * one that has waited longest (first come, first served). Five levels, because the claim queue
 * orders by Temporal's priority key, whose default server configuration has five (1 first, 3 for
 * anything started without one): priority 0 is key 3, so a task started before priorities
 * existed waits in line with the ordinary ones (docs/architecture.md §3).
 */
export const TASK_PRIORITY = { min: -2, max: 2, default: 0 } as const;

/** Temporal's priority key of a task's workflow, inherited by its claim activity. */
export function claimPriorityKey(priority: number): number {
  const p = Math.min(TASK_PRIORITY.max, Math.max(TASK_PRIORITY.min, Math.trunc(priority)));
  return 3 - p;
}
