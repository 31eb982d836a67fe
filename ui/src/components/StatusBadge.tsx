import type { JSX } from 'solid-js';
import './components.css';
import { isPurchaseStatus, STATUS_TONE, statusZh } from './tasks/types';

export default function StatusBadge(props: { status: string; label?: string | null | undefined }): JSX.Element {
  const tone = (): string => (isPurchaseStatus(props.status) ? STATUS_TONE[props.status] : 'neutral');
  return (
    <span class={`tk-badge tk-tone-${tone()}`} data-testid="task-status" data-status={props.status}>
      {props.label ?? statusZh(props.status)}
    </span>
  );
}
