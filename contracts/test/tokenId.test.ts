import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { network } from "hardhat";
import {
  bytes16ToUuid,
  splitTokenId,
  tokenIdHex,
  tokenIdOf,
  uuidToBytes16,
} from "../src/tokenId.ts";
import { deployCollectibles } from "./helpers.ts";

const { viem } = await network.create();

describe("src/tokenId.ts", () => {
  it("computes the same token id as the contract's tokenIdOf for random UUIDs", async () => {
    const { collectibles } = await deployCollectibles(viem);
    for (let i = 0; i < 20; i++) {
      const [collectible, claim] = [randomUUID(), randomUUID()];
      assert.equal(
        tokenIdOf(collectible, claim),
        await collectibles.read.tokenIdOf([uuidToBytes16(collectible), uuidToBytes16(claim)]),
      );
    }
  });

  it("writes the token id in hex as the API shows it, also when an id starts with zeros", () => {
    const cases = [
      [randomUUID(), randomUUID()],
      ["00000000-0000-4000-8000-00000000000a", randomUUID()],
      ["0190D3A2-C1F8-7E4B-9A6D-2C5E8F1A3B7C", "00000000-0000-0000-0000-000000000000"],
      ["00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001"],
      ["00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000"],
    ];
    for (const [collectible = "", claim = ""] of cases) {
      assert.equal(
        tokenIdHex(collectible, claim),
        `0x${tokenIdOf(collectible, claim).toString(16)}`,
      );
    }
  });

  it("splits a token id back into the two UUIDs it was made from", () => {
    const [collectibleId, claimId] = [randomUUID(), randomUUID()];
    assert.deepEqual(splitTokenId(tokenIdOf(collectibleId, claimId)), { collectibleId, claimId });
  });

  it("round-trips UUIDs through bytes16, lower-casing them", () => {
    const uuid = "0190D3A2-C1F8-7E4B-9A6D-2C5E8F1A3B7C";
    assert.equal(uuidToBytes16(uuid), "0x0190d3a2c1f87e4b9a6d2c5e8f1a3b7c");
    assert.equal(bytes16ToUuid(uuidToBytes16(uuid)), uuid.toLowerCase());
    assert.equal(bytes16ToUuid("0x01"), "00000000-0000-0000-0000-000000000001");
  });

  it("refuses strings that are not UUIDs and values longer than 16 bytes", () => {
    for (const bad of ["", "not-a-uuid", "0190d3a2c1f87e4b9a6d2c5e8f1a3b7c", `${randomUUID()}0`]) {
      assert.throws(() => uuidToBytes16(bad), TypeError, bad);
    }
    assert.throws(() => bytes16ToUuid(`0x${"11".repeat(17)}`), TypeError);
  });
});
