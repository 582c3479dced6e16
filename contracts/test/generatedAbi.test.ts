import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, it } from "node:test";
import {
  abiModuleUrl,
  renderAbiModule,
  renderTestContractsModule,
  testContractsModuleUrl,
} from "../scripts/export-abi.ts";

describe("src/generated", () => {
  it("collectiblesAbi.ts matches the compiled Collectibles artifact (run `pnpm --filter @collectibles/contracts abi` when this fails)", async () => {
    const committed = await readFile(abiModuleUrl, "utf8");
    assert.ok(
      committed === (await renderAbiModule()),
      "src/generated/collectiblesAbi.ts is stale: run `pnpm --filter @collectibles/contracts abi` and commit it",
    );
  });

  it("testContracts.ts matches the compiled test contracts (same command when this fails)", async () => {
    const committed = await readFile(testContractsModuleUrl, "utf8");
    assert.ok(
      committed === (await renderTestContractsModule()),
      "src/generated/testContracts.ts is stale: run `pnpm --filter @collectibles/contracts abi` and commit it",
    );
  });
});
