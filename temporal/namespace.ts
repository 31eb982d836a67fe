import type { Connection } from '@temporalio/client';
import { msToTs, tsToMs } from '@temporalio/common/lib/time';

/**
 * A finished purchase's history stays in the Temporal Web UI this long. The dev server's own
 * default is a day, far too short to look back at last week's purchases.
 */
export const DEFAULT_RETENTION_DAYS = 30;

const DAY_MS = 86_400_000;

type WorkflowService = Connection['workflowService'];

/** The namespace's retention in whole days (rounded down), or null when the server reports none. */
export function retentionDaysOf(desc: Awaited<ReturnType<WorkflowService['describeNamespace']>>): number | null {
  const ttl = desc.config?.workflowExecutionRetentionTtl;
  return ttl ? Math.floor(tsToMs(ttl) / DAY_MS) : null;
}

/** Sets only the retention; every other setting of the namespace is left as it is. */
export async function setRetentionDays(service: WorkflowService, namespace: string, days: number): Promise<void> {
  await service.updateNamespace({ namespace, config: { workflowExecutionRetentionTtl: msToTs(days * DAY_MS) } });
}

/** Registers a namespace with our retention (only ever done on the embedded dev server). */
export async function registerNamespace(service: WorkflowService, namespace: string, days: number): Promise<void> {
  await service.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(days * DAY_MS) });
}
