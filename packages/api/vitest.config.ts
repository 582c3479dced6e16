import { defineConfig } from "vitest/config";

// Every test file runs twice: once on PGlite and once on PostgreSQL (TEST_DATABASE_URL, which
// must be set: the postgres project fails rather than skips without it). `--project pglite`
// runs only the embedded half.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "pglite",
          env: { TEST_DB_DRIVER: "pglite" },
          globalSetup: ["src/test/pgliteTemplate.setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          env: { TEST_DB_DRIVER: "postgres" },
          globalSetup: ["src/test/postgres.setup.ts"],
        },
      },
    ],
  },
});
