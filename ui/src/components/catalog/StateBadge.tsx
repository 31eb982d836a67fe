import type { JSX } from 'solid-js';
import { STATE_LABELS, type ProductState } from './states';

export default function StateBadge(props: { state: ProductState }): JSX.Element {
  return (
    <span class={`badge badge-${props.state}`} data-testid="state-badge" data-state={props.state}>
      {STATE_LABELS[props.state]}
    </span>
  );
}
