/**
 * Custom search attributes registered on every server we start, so engineers can find a
 * purchase in the Temporal Web UI by task, goods, phone, state or mode. A production
 * cluster needs them registered once by hand: see temporal/README.md.
 */
export const SEARCH_ATTRIBUTE_NAMES = [
  'TaskId',
  'GoodsId',
  'DeviceId',
  'DeviceName',
  'TaskStatus',
  'ExecutionMode',
] as const;

export function searchAttributeArgs(): string[] {
  return SEARCH_ATTRIBUTE_NAMES.flatMap((name) => ['--search-attribute', `${name}=Keyword`]);
}
