/**
 * Every benchmark `pnpm bench` runs, in order. A new one (e.g. end-to-end claims per second once
 * claims exist) is a module in `benchmarks/` returning the common result shape, and a line here.
 */
import { gasBenchmark } from "./benchmarks/gas.ts";
import { indexerBenchmark } from "./benchmarks/indexer.ts";
import { listsBenchmark } from "./benchmarks/lists.ts";
import type { Benchmark } from "./lib/result.ts";

export const benchmarks: Benchmark[] = [gasBenchmark, listsBenchmark, indexerBenchmark];
