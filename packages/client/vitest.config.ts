import { countedTests } from "@collectibles/devkit/vitest";
import { defineConfig } from "vitest/config";

// Every file talks to one real API (chain, contract, indexer, API process) that the global setup
// starts once; one file at a time, so the machine's two cores serve that stack.
export default defineConfig({
  test: {
    ...countedTests("src/**/*.test.ts"),
    globalSetup: ["src/test/apiStack.setup.ts"],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
