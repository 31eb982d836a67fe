/**
 * The chaos run's hook in every process (scripts/chaos/, docs/chaos.md). Off unless
 * `CMAUTOBUY_CHAOS_URL` is set, which only `npm run chaos` does: then a process names itself once
 * (`chaosRegister`), reports each kill point it passes (`chaosPoint`) and waits for the
 * runner's answer. The runner answers only after it has killed what it meant to kill at that
 * point — this very process too, with SIGKILL, so nothing after the point runs in it.
 */
export const CHAOS_URL_VAR = 'CMAUTOBUY_CHAOS_URL';

/** The processes of `npm start` a chaos run kills (the ADB link it drops through the simulator). */
export const CHAOS_PROCESSES = ['device-worker', 'admin-worker', 'admin-http', 'phone-host', 'temporal'] as const;
export type ChaosProcess = (typeof CHAOS_PROCESSES)[number];

/** A point a process passes: an activity of a workflow starting, or one act on the phone. */
export type ChaosPoint =
  | { kind: 'activity'; activity: string; workflowId: string; local: boolean }
  | { kind: 'act'; phase: 'before' | 'after'; act: string };

const chaosUrl = (): string | undefined => process.env[CHAOS_URL_VAR] || undefined;

let self: { process: ChaosProcess; deviceId?: string; serial?: string } | null = null;

export function chaosEnabled(): boolean {
  return chaosUrl() !== undefined;
}

/** Names this process for its reports (a device worker with its phone); the runner finds processes by their command lines. */
export function chaosRegister(process_: ChaosProcess, phone: { deviceId?: string; serial?: string } = {}): void {
  if (chaosEnabled()) self = { process: process_, ...phone };
}

/** Reports a point and waits until the runner has done what it does there (bounded: a gone runner is no reason to stop). */
export async function chaosPoint(point: ChaosPoint): Promise<void> {
  if (!chaosEnabled() || !self) return;
  await post('/point', { ...self, pid: process.pid, point });
}

async function post(route: string, body: unknown): Promise<void> {
  try {
    await fetch(`${chaosUrl()}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    // the runner is gone or slow: the process goes on as it would without a chaos run
  }
}
