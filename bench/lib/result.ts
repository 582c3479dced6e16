/**
 * The shape every benchmark returns. The harness (`bench/run.ts`) only knows this shape: a new
 * benchmark is one module exporting a `Benchmark` and one line in `bench/benchmarks.ts`.
 */

/** One measured figure, beside the baseline it is compared with in the same run. */
export interface Row {
  /** What was measured, e.g. "GET /users?limit=100, a distinct list each request: p99 latency". */
  name: string;
  unit: string;
  figure: number;
  /** The baseline measured in the same run, when there is one. */
  baseline?: { name: string; value: number };
  /** figure / baseline.value (computed by the harness when absent). */
  ratio?: number;
  /** The goal in words, e.g. "<= 20 ms" or ">= 0.5x bare Express". */
  goal?: string;
  /** The goal as a value in `unit`, when it is one (e.g. 500 for ">= 500 claims/s"): the chart marks it. */
  goalValue?: number;
  /** Whether the goal is met; undefined when the row has no goal. */
  met?: boolean;
  /** Whether a bigger figure is better (throughput) or worse (latency, gas, memory). */
  higherIsBetter?: boolean;
  /**
   * Rows of one part of a benchmark (e.g. "GET /claims"): the chart heads each run of rows with
   * it. Names still say it, as the goals table lists rows without their group.
   */
  group?: string;
}

export interface BenchResult {
  id: string;
  title: string;
  /** One paragraph: what runs, on what data, against which baseline. */
  description: string;
  rows: Row[];
  /** Caveats and context (e.g. "seeded 100,000 users; /claims waits for issue 5"). */
  notes: string[];
  durationMs: number;
  /** ISO time this benchmark started (a subset run keeps the others' older results). */
  startedAt?: string;
  /** Whatever the benchmark wants kept in results.json beyond the rows. */
  raw?: unknown;
}

export interface BenchContext {
  /** Repository root. */
  root: string;
  /** Progress line on stderr, prefixed with the benchmark's id. */
  log(message: string): void;
  /**
   * PostgreSQL URL of a role allowed to create databases: BENCH_DATABASE_URL, else
   * TEST_DATABASE_URL, else an embedded server of the run's own, started on the first call.
   */
  postgres(): Promise<string>;
  /** `pnpm bench --profile`: benchmarks that can, summarise a CPU profile of the API. */
  profile: boolean;
}

export interface Benchmark {
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<Omit<BenchResult, "id" | "title" | "durationMs" | "startedAt">>;
}

export function ratioOf(row: Row): number | undefined {
  if (row.ratio !== undefined) return row.ratio;
  if (!row.baseline || row.baseline.value === 0) return undefined;
  return row.figure / row.baseline.value;
}
