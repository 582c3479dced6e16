import { countedTests } from "@collectibles/devkit/vitest";
import { defineConfig } from "vitest/config";

// Each file runs `pnpm start` (chain, deploy, PostgreSQL, indexer, API) one or more times, and
// much of its time is waiting (a 60 s stall, restarts, kills): two files at a time, one per core.
// On CI's two cores the suite took 446 s one file at a time, 268 s two at a time (every file
// passing), and no less three at a time (the crash file alone then took 198 s instead of 106 s).
// The stacks given a DATABASE_URL of their own get a database on the run's server
// (src/postgres.setup.ts).
export default defineConfig({
  test: {
    ...countedTests("src/**/*.test.ts"),
    globalSetup: ["src/postgres.setup.ts"],
    maxWorkers: 2,
    testTimeout: 600_000,
    hookTimeout: 300_000,
  },
});
