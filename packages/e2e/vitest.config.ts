import { defineConfig } from "vitest/config";

// Each file runs `pnpm start` (chain, deploy, indexer, API) one or more times: one file at a time,
// as two stacks side by side would fight over two cores.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // `pnpm test` counts from the JSON report, which turbo's cache keeps with the run.
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 300_000,
  },
});
