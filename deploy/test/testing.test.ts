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

/** Reads the deployed contract's roles and settings, as a chain explorer would. */
function contractReader(rpcUrl: string, address: `0x${string}`) {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const read = { address, abi: collectiblesAbi } as const;
  return {
    client,
    async isMinter(account: string) {
      const role = await client.readContract({ ...read, functionName: "MINTER_ROLE" });
      return client.readContract({
        ...read,
        functionName: "hasRole",
        args: [role, account as `0x${string}`],
      });
    },
    hookGasBudget: () => client.readContract({ ...read, functionName: "hookGasBudget" }),
    defaultAdmin: () => client.readContract({ ...read, functionName: "defaultAdmin" }),
    defaultAdminDelay: () => client.readContract({ ...read, functionName: "defaultAdminDelay" }),
  };
}

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

    const contract = contractReader(chain.rpcUrl, deployment.address);
    const receipt = await contract.client.getTransactionReceipt({
      hash: deployment.deployTransaction,
    });
    assert.equal(receipt.contractAddress?.toLowerCase(), deployment.address.toLowerCase());
    assert.equal(Number(receipt.blockNumber), deployment.deployBlock);
    assert.equal(await contract.isMinter(minter), true);
    assert.equal(await contract.isMinter(DEV_ACCOUNT_0), false);
    assert.equal(await contract.defaultAdmin(), DEV_ACCOUNT_0);
    assert.equal(await contract.defaultAdminDelay(), 0);
    assert.equal(await contract.hookGasBudget(), 50_000n);
  });

  it("makes account #0 the minter when none is given, and takes another hook gas budget", async () => {
    const deployment = await deployCollectibles({
      rpcUrl: chain.rpcUrl,
      deploymentsDir: folder,
      hookGasBudget: 1_000_000n,
    });
    const contract = contractReader(chain.rpcUrl, deployment.address);
    assert.equal(await contract.isMinter(DEV_ACCOUNT_0), true);
    assert.equal(await contract.hookGasBudget(), 1_000_000n);
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
