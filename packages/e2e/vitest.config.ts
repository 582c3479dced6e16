import { countedTests } from "@collectibles/devkit/vitest";
import { defineConfig } from "vitest/config";

// Each file runs `pnpm start` (chain, deploy, PostgreSQL, indexer, API) one or more times: one
// file at a time, as two stacks side by side would fight over two cores. The stacks given a
// DATABASE_URL of their own get a database on the run's server (src/postgres.setup.ts).
export default defineConfig({
  test: {
    ...countedTests("src/**/*.test.ts"),
    globalSetup: ["src/postgres.setup.ts"],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 300_000,
  },
});
