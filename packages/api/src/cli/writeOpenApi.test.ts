/**
 * The committed packages/api/openapi.json (what integrators read and `pnpm lint` checks with
 * Redocly) is the document the API serves: a changed endpoint declaration without a regenerated
 * file fails here, naming the command that regenerates it.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testAppPerFile } from "../test/perFile.ts";
import { OPENAPI_FILE, REGENERATE_OPENAPI } from "./writeOpenApi.ts";

const t = testAppPerFile();

describe("packages/api/openapi.json", () => {
  it("is the document GET /openapi.json serves", async () => {
    const served = await t.call("GET", "/openapi.json", { key: null });
    expect(served.status).toBe(200);
    // Compared as data: the file is formatted by Biome, the answer is compact JSON.
    const committed = JSON.parse(readFileSync(OPENAPI_FILE, "utf8"));
    expect(
      committed,
      `packages/api/openapi.json differs from the served document: run \`${REGENERATE_OPENAPI}\``,
    ).toStrictEqual(served.body);
  });
});
