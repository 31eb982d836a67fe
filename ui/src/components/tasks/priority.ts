import { TASK_PRIORITY } from '../../../../domain/purchase/priority';

/**
 * 优先级 as the operator reads it, highest first; the range and the default are the domain's
 * (domain/purchase/priority.ts): a free phone takes the highest first, then the longest waiting.
 */
export const PRIORITY_CHOICES: ReadonlyArray<{ value: number; label: string }> = [
  { value: 2, label: '最高' },
  { value: 1, label: '较高' },
  { value: TASK_PRIORITY.default, label: '普通' },
  { value: -1, label: '较低' },
  { value: -2, label: '最低' },
];

export const DEFAULT_PRIORITY: number = TASK_PRIORITY.default;

/** The level's word; the number itself for one the UI does not know. */
export function priorityZh(priority: number): string {
  return PRIORITY_CHOICES.find((c) => c.value === priority)?.label ?? String(priority);
}
