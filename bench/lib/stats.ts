/** Latency distributions of the claims benchmark. */
export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest rank: the smallest value with at least p% of the values at or below it.
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    p50: round(at(50)),
    p95: round(at(95)),
    p99: round(at(99)),
    max: round(sorted.at(-1) ?? 0),
    mean: round(sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length)),
  };
}
