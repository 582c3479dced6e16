/**
 * Writes the OpenAPI document the API serves at GET /openapi.json to packages/api/openapi.json,
 * so integrators (and `pnpm lint`'s Redocly check) can read it without running the API:
 *
 *   pnpm openapi          (from the repository root; formats the file with Biome too)
 *
 * Run it after changing an endpoint declaration: `writeOpenApi.test.ts` fails while the committed
 * file and the served document differ.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "../routes/endpoints.ts";

export const OPENAPI_FILE = fileURLToPath(new URL("../../openapi.json", import.meta.url));

/** The command that regenerates OPENAPI_FILE, for messages that tell someone to run it. */
export const REGENERATE_OPENAPI = "pnpm openapi";

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(OPENAPI_FILE, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
}
