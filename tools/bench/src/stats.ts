/** Latency summary of one measured series (milliseconds). */
export interface LatencySummary {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/**
 * The p-th percentile (0 ≤ p ≤ 100) of `values` by linear interpolation between closest ranks
 * (the NumPy default). Does not modify `values`.
 * @throws RangeError for an empty series or p outside [0, 100].
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError("percentile of an empty series");
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be in [0, 100], got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const pos = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * n, mean, p50, p95, p99 and max of a series of milliseconds.
 * @throws RangeError for an empty series.
 */
export function summarize(values: readonly number[]): LatencySummary {
  if (values.length === 0) throw new RangeError("summary of an empty series");
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    n: values.length,
    mean: sum / values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: Math.max(...values),
  };
}

/** The median of a series (the 50th percentile). @throws RangeError for an empty series. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}
