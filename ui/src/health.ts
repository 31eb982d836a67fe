import { createSignal, onCleanup, type Accessor } from 'solid-js';

export type HealthState = 'checking' | 'ok' | 'temporal-down' | 'unreachable';

export const HEALTH_POLL_MS = 5_000;
// Shorter than the poll interval so a hung admin can never stack up requests.
const HEALTH_TIMEOUT_MS = 4_000;

interface Healthz {
  status?: unknown;
  db?: unknown;
  temporal?: unknown;
}

export function classifyHealth(body: Healthz): HealthState {
  if (body.db !== 'ok') return 'unreachable';
  if (body.temporal === 'down') return 'temporal-down';
  return body.status === 'ok' && body.temporal === 'ok' ? 'ok' : 'unreachable';
}

async function probe(): Promise<HealthState> {
  const ctrl = new AbortController();
  const timer = window.setTimeout(() => ctrl.abort(), HEALTH_TIMEOUT_MS);
  try {
    // Plain fetch, not api.get: /healthz needs no session, and a failure here must never
    // trigger the login redirect.
    const res = await fetch('/healthz', { cache: 'no-store', signal: ctrl.signal, headers: { Accept: 'application/json' } });
    // A 503 may still carry a body that says which part is down.
    const body: unknown = await res.json();
    if (typeof body !== 'object' || body === null) return 'unreachable';
    return classifyHealth(body);
  } catch {
    return 'unreachable';
  } finally {
    window.clearTimeout(timer);
  }
}

/** Polls /healthz for the lifetime of the calling component. */
export function createHealth(): Accessor<HealthState> {
  const [state, setState] = createSignal<HealthState>('checking');
  let inFlight = false;
  let disposed = false;

  const tick = async (): Promise<void> => {
    if (inFlight) return;
    inFlight = true;
    const next = await probe();
    inFlight = false;
    if (!disposed) setState(next);
  };

  void tick();
  const interval = window.setInterval(() => void tick(), HEALTH_POLL_MS);
  onCleanup(() => {
    disposed = true;
    window.clearInterval(interval);
  });
  return state;
}
