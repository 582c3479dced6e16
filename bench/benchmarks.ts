/**
 * Every benchmark `pnpm bench` runs, in order. A new one is a module in `benchmarks/` returning
 * the common result shape, and a line here.
 */
import { claimsBenchmark } from "./benchmarks/claims.ts";
import { gasBenchmark } from "./benchmarks/gas.ts";
import { indexerBenchmark } from "./benchmarks/indexer.ts";
import { listsBenchmark } from "./benchmarks/lists.ts";
import type { Benchmark } from "./lib/result.ts";

export const benchmarks: Benchmark[] = [
  gasBenchmark,
  listsBenchmark,
  indexerBenchmark,
  claimsBenchmark,
];
