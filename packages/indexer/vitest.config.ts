import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      // The API's reader (tested here, beside the indexer it reads) imports this package by name;
      // point that name at the file wherever the importer lives.
      "@collectibles/indexer/client": fileURLToPath(new URL("./client.ts", import.meta.url)),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    // People read the default reporter; `pnpm test` counts from the JSON one (kept by turbo's
    // cache with the run, so a cached run is counted the same).
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    // Each file runs a chain, an indexer and a database; two cores handle them one after another.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
