/**
 * Time in the admin DB and in payloads is UTC, fixed width `YYYY-MM-DDTHH:MM:SSZ`, so that
 * lexical order equals time order (docs/architecture.md §6). Milliseconds are dropped on purpose.
 */
export type UtcTimestamp = string & { readonly __brand: 'UtcTimestamp' };

const UTC_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

export function toUtcTimestamp(date: Date): UtcTimestamp {
  if (Number.isNaN(date.getTime())) throw new RangeError('invalid date');
  return `${date.toISOString().slice(0, 19)}Z` as UtcTimestamp;
}

export function nowUtc(): UtcTimestamp {
  return toUtcTimestamp(new Date());
}

export function isUtcTimestamp(value: string): value is UtcTimestamp {
  return UTC_RE.test(value) && !Number.isNaN(Date.parse(value));
}

export function parseUtcTimestamp(value: string): Date {
  if (!isUtcTimestamp(value)) throw new RangeError(`not a fixed-width UTC timestamp: ${JSON.stringify(value)}`);
  return new Date(value);
}
