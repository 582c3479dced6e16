/**
 * What the compiled contract can do at all, read from its ABI and bytecode: the complete list of
 * state-changing entry points (so a setter, burn or admin transfer cannot slip in unnoticed) and
 * the absence of any opcode that could swap or destroy the code (no upgrade path).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import hre from "hardhat";
import type { Abi } from "viem";

const artifact = await hre.artifacts.readArtifact("Collectibles");
// Widened to any ABI: the checks below must hold for whatever the compiler produced.
const abi: Abi = artifact.abi;

/** Runtime opcodes, skipping PUSH data and the trailing CBOR metadata. */
function opcodes(bytecode: string): number[] {
  const code = Buffer.from(bytecode.slice(2), "hex");
  const metadataLength = code.readUInt16BE(code.length - 2) + 2;
  const ops: number[] = [];
  for (let i = 0; i < code.length - metadataLength; i++) {
    const op = code[i] ?? 0;
    ops.push(op);
    if (op >= 0x60 && op <= 0x7f) i += op - 0x5f;
  }
  return ops;
}

describe("Collectibles surface", () => {
  it("has exactly these state-changing functions: minting, holder transfers and role administration", () => {
    // mintIsolated is claimBatch's self-call; anyone else calling it is refused (CallerNotSelf).
    const writes = abi
      .filter(
        (item) =>
          item.type === "function" &&
          item.stateMutability !== "view" &&
          item.stateMutability !== "pure",
      )
      .map((item) => (item.type === "function" ? item.name : ""))
      .sort();
    assert.deepEqual(writes, [
      "acceptDefaultAdminTransfer",
      "beginDefaultAdminTransfer",
      "cancelDefaultAdminTransfer",
      "changeDefaultAdminDelay",
      "claim",
      "claimBatch",
      "createCollectible",
      "grantRole",
      "mintIsolated",
      "renounceRole",
      "revokeRole",
      "rollbackDefaultAdminDelay",
      "safeBatchTransferFrom",
      "safeTransferFrom",
      "setApprovalForAll",
    ]);
  });

  it("has no fallback, receive or payable function", () => {
    assert.equal(
      abi.some((item) => item.type === "fallback" || item.type === "receive"),
      false,
    );
    assert.equal(
      abi.some((item) => "stateMutability" in item && item.stateMutability === "payable"),
      false,
    );
  });

  it("contains no DELEGATECALL, CALLCODE or SELFDESTRUCT, so its code can never be replaced", () => {
    const ops = new Set(opcodes(artifact.deployedBytecode));
    assert.ok(ops.has(0xf1), "the scan sees CALL (receiver hooks), so it reads real code");
    for (const [name, op] of [
      ["DELEGATECALL", 0xf4],
      ["CALLCODE", 0xf2],
      ["SELFDESTRUCT", 0xff],
    ] as const) {
      assert.equal(ops.has(op), false, name);
    }
  });

  it("fits the 24,576-byte contract size limit", () => {
    const size = (artifact.deployedBytecode.length - 2) / 2;
    assert.ok(size <= 24_576, `runtime size ${size} bytes`);
  });
});
