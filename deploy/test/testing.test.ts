import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { collectiblesAbi } from "@collectibles/contracts";
import { DEV_ACCOUNT_0, type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import { createPublicClient, http } from "viem";
import { getDeployment } from "../src/index.ts";
import { deployCollectibles } from "../src/testing.ts";

const folder = mkdtempSync(path.join(tmpdir(), "deploy-testing-"));
after(() => rmSync(folder, { recursive: true, force: true }));

describe("deployCollectibles", () => {
  let chain: LocalChain;
  before(async () => {
    chain = await startLocalChain();
  });
  after(() => chain?.stop());

  it("deploys Collectibles and writes the deployments file getDeployment reads", async () => {
    const minter = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const deployment = await deployCollectibles({
      rpcUrl: chain.rpcUrl,
      deploymentsDir: folder,
      minter,
    });
    assert.deepEqual(getDeployment(31337, pathToFileURL(`${folder}/`)), deployment);

    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const receipt = await client.getTransactionReceipt({ hash: deployment.deployTransaction });
    assert.equal(receipt.contractAddress?.toLowerCase(), deployment.address.toLowerCase());
    assert.equal(Number(receipt.blockNumber), deployment.deployBlock);

    const read = { address: deployment.address, abi: collectiblesAbi } as const;
    const minterRole = await client.readContract({ ...read, functionName: "MINTER_ROLE" });
    assert.equal(
      await client.readContract({ ...read, functionName: "hasRole", args: [minterRole, minter] }),
      true,
    );
    assert.equal(
      await client.readContract({
        ...read,
        functionName: "hasRole",
        args: [minterRole, DEV_ACCOUNT_0],
      }),
      false,
    );
    assert.equal(
      await client.readContract({ ...read, functionName: "defaultAdmin" }),
      DEV_ACCOUNT_0,
    );
    assert.equal(await client.readContract({ ...read, functionName: "defaultAdminDelay" }), 0);
    assert.equal(await client.readContract({ ...read, functionName: "hookGasBudget" }), 50_000n);
  });

  it("makes account #0 the minter when none is given, and takes another hook gas budget", async () => {
    const deployment = await deployCollectibles({
      rpcUrl: chain.rpcUrl,
      deploymentsDir: folder,
      hookGasBudget: 1_000_000n,
    });
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const read = { address: deployment.address, abi: collectiblesAbi } as const;
    const minterRole = await client.readContract({ ...read, functionName: "MINTER_ROLE" });
    assert.equal(
      await client.readContract({
        ...read,
        functionName: "hasRole",
        args: [minterRole, DEV_ACCOUNT_0],
      }),
      true,
    );
    assert.equal(await client.readContract({ ...read, functionName: "hookGasBudget" }), 1_000_000n);
  });
});

describe("deployCollectibles failures", () => {
  it("deployCollectibles says which chain it cannot reach", async () => {
    await assert.rejects(
      deployCollectibles({ rpcUrl: "http://127.0.0.1:9", deploymentsDir: folder }),
      /Cannot reach the chain at http:\/\/127\.0\.0\.1:9/,
    );
  });
});
