import { defineConfig } from "drizzle-kit";

// `pnpm --filter @collectibles/api db:generate` writes a migration for every change to the
// schema; the API applies them at start (src/db/driver/client.ts). No database is needed to generate.
export default defineConfig({
  dialect: "postgresql",
  schema: [
    "./src/db/schema.ts",
    "./src/db/eventSchema.ts",
    "./src/db/countSchema.ts",
    "./src/db/walletSchema.ts",
  ],
  out: "./drizzle",
});
