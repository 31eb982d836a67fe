/** Order statistics for the bench: nearest-rank percentiles, and the median of runs with its range. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function spread(values: readonly number[]): Spread {
  return { median: percentile(values, 50), min: Math.min(...values), max: Math.max(...values), runs: values.length };
}

/** `12.3 (11.9–13.0)`: the median and, over more than one run, the range. */
export function showSpread(s: Spread, digits = 1): string {
  const f = (n: number) => n.toFixed(digits);
  return s.runs > 1 ? `${f(s.median)} (${f(s.min)}–${f(s.max)})` : f(s.median);
}

export const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;
