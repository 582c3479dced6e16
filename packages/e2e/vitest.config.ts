import { countedTests } from "@collectibles/devkit/vitest";
import { defineConfig } from "vitest/config";

// Each file runs `pnpm start` (chain, deploy, indexer, API) one or more times: one file at a time,
// as two stacks side by side would fight over two cores.
export default defineConfig({
  test: {
    ...countedTests("src/**/*.test.ts"),
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 300_000,
  },
});
