import { createSignal } from 'solid-js';
import type { UiConfig } from '../../../../domain/ui-config';
import { getUiConfig } from '../../api/endpoints';

// Asked once per page load: the address cannot change while the admin runs.
const [config, setConfig] = createSignal<UiConfig | null>(null);
let asked: Promise<void> | undefined;

function ask(): void {
  asked ??= getUiConfig().then(
    (c) => {
      setConfig(c);
    },
    () => {
      asked = undefined; // try again on the next render
    },
  );
}

/**
 * The workflow's page in the Temporal Web UI the admin was started with (`GET /api/config`),
 * never a guessed address. Undefined until the admin has answered, and when it knows no UI: the
 * link then has no target instead of a wrong one. Reactive: call it inside JSX.
 */
export function temporalWorkflowUrl(workflowId: string): string | undefined {
  ask();
  const c = config();
  if (!c?.temporal_ui_url) return undefined;
  return `${c.temporal_ui_url}/namespaces/${encodeURIComponent(c.temporal_namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}
