import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // `pnpm test` counts from the JSON report, which turbo's cache keeps with the run.
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    testTimeout: 60_000,
  },
});
