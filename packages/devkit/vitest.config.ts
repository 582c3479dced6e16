import { defineConfig } from "vitest/config";
import { countedTests } from "./src/vitest.ts";

export default defineConfig({
  test: {
    ...countedTests("src/**/*.test.ts"),
    testTimeout: 60_000,
    // Two files at a time: they mostly wait on the processes they start and stop (CI's two cores
    // were 73% idle one file at a time, vitest's default there), and the longest file, the local
    // chain's restarts and kills (20 s), runs beside the four others.
    maxWorkers: 2,
  },
});
