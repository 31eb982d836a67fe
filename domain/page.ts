/** One page of a list route: keyset pagination, `next_cursor` is opaque and null on the last page. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
