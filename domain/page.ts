/**
 * One page of a list route: keyset pagination, `next_cursor` is opaque and null on the last page;
 * `total` counts every row the same filter matches, on all pages (the list header's 「共 N 条」).
 */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
  total: number;
}
