/**
 * The committed types must be what openapi-typescript writes from the API's committed document
 * today: when an endpoint changes and `pnpm openapi` rewrites the document, this fails until
 * `pnpm --filter @collectibles/client generate` rewrites the types too.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { OPENAPI_DOCUMENT, SCHEMA_FILE, schemaTypes } from "../scripts/schemaTypes.ts";

describe("the generated types", () => {
  it("are what openapi-typescript generates from packages/api/openapi.json now", async () => {
    const fresh = await schemaTypes();
    const committed = fs.readFileSync(SCHEMA_FILE, "utf8");
    // A readable verdict first; the full comparison then shows the difference.
    expect(
      committed === fresh,
      `${SCHEMA_FILE} is stale against ${OPENAPI_DOCUMENT}: run pnpm --filter @collectibles/client generate`,
    ).toBe(true);
    expect(committed).toBe(fresh);
  });
});
