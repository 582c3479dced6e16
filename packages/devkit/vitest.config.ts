import { defineConfig } from "vitest/config";
import { countedTests } from "./src/vitest.ts";

export default defineConfig({
  test: {
    ...countedTests("src/**/*.test.ts"),
    testTimeout: 60_000,
  },
});
