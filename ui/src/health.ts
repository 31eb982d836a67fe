import { createSignal, type Accessor } from 'solid-js';
import { getHealth, type Healthz } from './api/endpoints';
import { createPoll } from './lib/poll';

export type HealthState = 'checking' | 'ok' | 'temporal-down' | 'unreachable';

const HEALTH_POLL_MS = 5_000;
// Shorter than the poll interval so a hung admin can never stack up requests.
const HEALTH_TIMEOUT_MS = 4_000;

function classifyHealth(body: Healthz): HealthState {
  if (body.db !== 'ok') return 'unreachable';
  if (body.temporal === 'down') return 'temporal-down';
  return body.status === 'ok' && body.temporal === 'ok' ? 'ok' : 'unreachable';
}

/** Polls /healthz for the lifetime of the calling component; a failure is a state, never a login redirect. */
export function createHealth(): Accessor<HealthState> {
  const [state, setState] = createSignal<HealthState>('checking');
  createPoll(
    async () => {
      const body = await getHealth(HEALTH_TIMEOUT_MS);
      setState(body === null ? 'unreachable' : classifyHealth(body));
    },
    HEALTH_POLL_MS,
    { immediate: true },
  );
  return state;
}
