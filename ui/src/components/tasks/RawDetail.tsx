import { Show, type JSX } from 'solid-js';

/**
 * A detail the UI has no Chinese for (it came without facts: components/tasks/details.ts):
 * kept for engineers, folded so the operator's page stays Chinese.
 */
export default function RawDetail(props: { detail: string | null; testId?: string }): JSX.Element {
  return (
    <Show when={props.detail}>
      {(d) => (
        <details class="tk-raw-detail" data-testid={props.testId ?? 'raw-detail'}>
          <summary class="muted">技术详情</summary>
          <code class="tk-mono">{d()}</code>
        </details>
      )}
    </Show>
  );
}
