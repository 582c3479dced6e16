import { fileURLToPath } from "node:url";
import { countedTests } from "@collectibles/devkit/vitest";
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
    ...countedTests("test/**/*.test.ts"),
    globalSetup: ["test/postgres.setup.ts"],
    // Each file runs a chain, an indexer and a database; two cores handle them one after another.
    // Two files at a time: each waits mostly on Ponder processes booting and catching up (78 s
    // one file at a time on two cores, 56 s two at a time).
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
