/**
 * Verifiability, offline: an explorer (Etherscan, Blockscout, Sourcify) recompiles the standard-JSON
 * input hardhat-verify sends and accepts the contract only when the result equals the code on
 * chain. This test does the same with the npm `solc` (soljson) and a local deployment.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import hre from "hardhat";
import type { CompilerInput } from "hardhat/types/solidity";
import { createPublicClient, type Hex, http } from "viem";
import { buildInfoOf, COLLECTIBLES_FQN, collectiblesArtifact } from "../src/artifact.ts";
import { deployCollectibles, type LocalChain, startLocalChain } from "../src/testing.ts";

const require = createRequire(import.meta.url);
const solc = require("solc") as {
  version(): string;
  compile(input: string): string;
};

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<
    string,
    Record<string, { evm: { deployedBytecode: { object: string; immutableReferences: object } } }>
  >;
}

const folder = mkdtempSync(path.join(tmpdir(), "deploy-verify-"));
after(() => rmSync(folder, { recursive: true, force: true }));

/** The minimal input hardhat-verify submits first (its `getCompilerInput`, reproduced). */
async function inputHardhatVerifySends(): Promise<CompilerInput> {
  const root = `npm:${COLLECTIBLES_FQN.split(":")[0]}`;
  const jobs = await hre.solidity.getCompilationJobs([root], {
    buildProfile: "production",
    quiet: true,
    force: true,
  });
  assert.ok(jobs.success, "compilation jobs");
  const job = jobs.compilationJobsPerFile.get(root);
  assert.ok(job, `a compilation job for ${root}`);
  return job.getSolcInput();
}

describe("verification on explorers, offline", () => {
  let chain: LocalChain;
  let onChain: Hex | undefined;
  before(async () => {
    chain = await startLocalChain();
    const deployment = await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir: folder });
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    onChain = await client.getCode({ address: deployment.address });
  });
  after(() => chain?.stop());

  it("the input hardhat-verify sends is the build's own input, with the exact compiler", async () => {
    const artifact = await collectiblesArtifact();
    const buildInfo = buildInfoOf(artifact);
    const sent = await inputHardhatVerifySends();
    assert.deepEqual(sent, buildInfo.input);
    // The compiler explorers are asked for (`v<solcLongVersion>`) is the npm solc used here.
    assert.equal(solc.version().split(".Emscripten")[0], buildInfo.solcLongVersion);
  });

  it("compiling that input with solc gives exactly the deployed runtime code, metadata hash included", async () => {
    const input = await inputHardhatVerifySends();
    const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
    const errors = (output.errors ?? []).filter((e) => e.severity === "error");
    assert.deepEqual(errors, [], errors.map((e) => e.formattedMessage).join("\n"));

    const [file, name] = [
      "npm/@collectibles/contracts@local/contracts/Collectibles.sol",
      "Collectibles",
    ];
    const compiled = output.contracts[file]?.[name]?.evm.deployedBytecode;
    assert.ok(compiled, `${file}:${name} in the output`);
    // No immutables: nothing in the runtime code differs per deployment, so no masking is needed.
    assert.deepEqual(compiled.immutableReferences, {});

    assert.ok(onChain && onChain.length > 2, "code at the deployed address");
    assert.equal(onChain, `0x${compiled.object}`);
    // The CBOR metadata (IPFS hash of the metadata and the solc version) is part of the match.
    assert.match(onChain, /a264697066735822[0-9a-f]{68}64736f6c6343000825(0033)$/);
  });
});
