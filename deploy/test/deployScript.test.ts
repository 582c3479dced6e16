import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { collectiblesAbi } from "@collectibles/contracts";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { createPublicClient, getAddress, http } from "viem";
import { deployOptionsFromEnv, deployWithIgnition } from "../scripts/deployWithIgnition.ts";
import { collectiblesArtifact, deployRoot } from "../src/artifact.ts";
import { type HardhatNode, startHardhatNode } from "../src/hardhatNode.ts";
import { getDeployment } from "../src/index.ts";
import { type LocalChain, startLocalChain } from "../src/testing.ts";
import { runDeployScript } from "../testkit/processes.ts";

const folder = mkdtempSync(path.join(tmpdir(), "deploy-script-"));
const dir = pathToFileURL(`${folder}/`);
// Its own Ignition journal, so the test never touches the one of your `pnpm deploy:local`.
const testRun = `test-${randomBytes(4).toString("hex")}`;
const localId = `${testRun}-local`;
const liveId = `${testRun}-live`;
const journals = [localId, liveId].map((id) =>
  path.join(deployRoot, "ignition", "deployments", id),
);
const ADMIN = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"; // account #3
const MINTER = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65"; // account #4
// Account #1 of the well-known development mnemonic: never a real key.
const DEV_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const DEV_ACCOUNT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

// Where Ignition remembers which node instance each local deployment id ran on.
const instances = path.join(deployRoot, "cache", ".hardhat-network-instances.json");

/** Just enough of a Hardhat runtime for the checks deployWithIgnition makes before deploying. */
const fakeHre = (network: string | undefined, config: object) =>
  ({
    globalOptions: { network },
    config: { networks: network ? { [network]: config } : {} },
  }) as unknown as HardhatRuntimeEnvironment;

after(() => {
  rmSync(folder, { recursive: true, force: true });
  for (const journal of journals) rmSync(journal, { recursive: true, force: true });
  if (existsSync(instances)) {
    const known = JSON.parse(readFileSync(instances, "utf8")) as Record<string, string>;
    delete known[localId];
    writeFileSync(instances, JSON.stringify(known));
  }
});

describe("scripts/deploy.ts (pnpm deploy:local)", () => {
  let chain: LocalChain;
  before(async () => {
    chain = await startLocalChain();
  });
  after(() => chain?.stop());

  const env = () => ({
    LOCAL_RPC_URL: chain.rpcUrl,
    DEPLOYMENTS_DIR: folder,
    IGNITION_DEPLOYMENT_ID: localId,
    ADMIN_ADDRESS: ADMIN,
    MINTER_ADDRESS: MINTER,
  });

  async function assertDeployed() {
    const deployment = getDeployment(31337, dir);
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const receipt = await client.getTransactionReceipt({ hash: deployment.deployTransaction });
    assert.equal(
      receipt.contractAddress && getAddress(receipt.contractAddress),
      deployment.address,
    );
    assert.equal(Number(receipt.blockNumber), deployment.deployBlock);
    // The code on chain is the artifact's, metadata hash included: what explorers verify.
    const artifact = await collectiblesArtifact();
    assert.equal(await client.getCode({ address: deployment.address }), artifact.deployedBytecode);

    const read = { address: deployment.address, abi: collectiblesAbi } as const;
    const minterRole = await client.readContract({ ...read, functionName: "MINTER_ROLE" });
    assert.equal(await client.readContract({ ...read, functionName: "defaultAdmin" }), ADMIN);
    assert.equal(await client.readContract({ ...read, functionName: "defaultAdminDelay" }), 0);
    assert.equal(
      await client.readContract({ ...read, functionName: "hasRole", args: [minterRole, MINTER] }),
      true,
    );
    return deployment;
  }

  it("deploys with Ignition, shows progress and writes deployments/31337.json", async () => {
    const { code, output } = await runDeployScript("localhost", env());
    assert.equal(code, 0, output);
    assert.match(output, /Deploying Collectibles to chain 31337/);
    assert.match(output, /CollectiblesModule#Collectibles/);
    const deployment = await assertDeployed();
    assert.match(
      output,
      new RegExp(`Collectibles at ${deployment.address}, block ${deployment.deployBlock}`),
    );
  });

  it("redeploys without a prompt when the local node was restarted", async () => {
    const port = chain.port;
    await chain.stop();
    chain = await startLocalChain({ port });
    const { code, output } = await runDeployScript("localhost", env());
    assert.equal(code, 0, output);
    await assertDeployed();
  });

  it("says the chain is unreachable and how to start it, without a stack trace", async () => {
    const { code, output } = await runDeployScript("localhost", {
      ...env(),
      LOCAL_RPC_URL: "http://127.0.0.1:9",
    });
    assert.equal(code, 1, output);
    assert.match(output, /Cannot reach the chain of network "localhost" at 127\.0\.0\.1:9/);
    assert.match(output, /pnpm chain/);
    assert.doesNotMatch(output, /\n\s+at /);
  });
});

describe("scripts/deploy.ts on a real chain (pnpm deploy)", () => {
  // A Hardhat node with another chain id stands in for the real chain: Ignition treats it as one
  // (confirmation prompt, 5 confirmations) and the key comes from DEPLOYER_PRIVATE_KEY.
  let chain: HardhatNode;
  before(async () => {
    chain = await startHardhatNode({ chainId: 1337 });
  });
  after(() => chain?.stop());

  const env = () => ({
    RPC_URL: chain.rpcUrl,
    CHAIN_ID: "1337",
    DEPLOYER_PRIVATE_KEY: DEV_KEY,
    MINTER_ADDRESS: MINTER,
    DEPLOYMENTS_DIR: folder,
    IGNITION_DEPLOYMENT_ID: liveId,
  });

  it("without a terminal to confirm in, wants HARDHAT_IGNITION_CONFIRM_DEPLOYMENT and sends nothing", async () => {
    const hre = fakeHre("live", {
      type: "http",
      chainId: 1337,
      url: { get: async () => chain.rpcUrl },
    });
    await assert.rejects(
      deployWithIgnition(hre, { interactive: false, log: () => {} }),
      /needs a confirmation: .*HARDHAT_IGNITION_CONFIRM_DEPLOYMENT=1\. Nothing was sent/,
    );
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    assert.equal(await client.getBlockNumber(), 0n);
  });

  it("refuses a node that serves another chain than CHAIN_ID", async () => {
    const hre = fakeHre("live", {
      type: "http",
      chainId: 100,
      url: { get: async () => chain.rpcUrl },
    });
    await assert.rejects(
      deployWithIgnition(hre, { log: () => {} }),
      /configured for chain 100 but 127\.0\.0\.1:\d+ serves chain 1337/,
    );
  });

  it("deploys with HARDHAT_IGNITION_CONFIRM_DEPLOYMENT=1, from the key, with a two-day admin delay", async () => {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    // Ignition waits for 5 confirmations on a real chain: keep mining while it runs.
    let running = true;
    const miner = (async () => {
      while (running) {
        await client.request({ method: "evm_mine" } as never).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const result = await runDeployScript("live", {
      ...env(),
      HARDHAT_IGNITION_CONFIRM_DEPLOYMENT: "1",
    }).finally(() => {
      running = false;
    });
    await miner;
    assert.equal(result.code, 0, result.output);

    const deployment = getDeployment(1337, dir);
    const receipt = await client.getTransactionReceipt({ hash: deployment.deployTransaction });
    assert.equal(receipt.from, DEV_ACCOUNT.toLowerCase());
    assert.equal(Number(receipt.blockNumber), deployment.deployBlock);
    const read = { address: deployment.address, abi: collectiblesAbi } as const;
    assert.equal(await client.readContract({ ...read, functionName: "defaultAdmin" }), DEV_ACCOUNT);
    assert.equal(
      await client.readContract({ ...read, functionName: "defaultAdminDelay" }),
      172_800,
    );
  });
});

describe("deployWithIgnition guards", () => {
  const http31337 = (chainId?: number) => ({
    type: "http",
    chainId,
    url: { get: async () => "http://127.0.0.1:9/v2/secret-api-key" },
  });
  const quiet = { log: () => {} };

  it("wants --network localhost or live", async () => {
    await assert.rejects(deployWithIgnition(fakeHre(undefined, {}), quiet), /--network localhost/);
    await assert.rejects(
      deployWithIgnition(fakeHre("node", { type: "edr-simulated" }), quiet),
      /--network localhost .* or --network live/,
    );
  });

  it("wants CHAIN_ID for a real chain", async () => {
    await assert.rejects(deployWithIgnition(fakeHre("live", http31337()), quiet), /Set CHAIN_ID/);
  });

  it("names the host it cannot reach but never the URL's path, where API keys live", async () => {
    await assert.rejects(
      deployWithIgnition(fakeHre("live", http31337(100)), quiet),
      (error: Error) => {
        assert.match(error.message, /Cannot reach the chain of network "live" at 127\.0\.0\.1:9/);
        assert.match(error.message, /Check RPC_URL/);
        assert.doesNotMatch(error.message, /secret-api-key/);
        return true;
      },
    );
  });

  it("reads its options from the environment and names a malformed one", () => {
    assert.deepEqual(
      deployOptionsFromEnv({
        ADMIN_ADDRESS: ADMIN.toLowerCase(),
        ADMIN_DELAY_SECONDS: "60",
        IGNITION_DEPLOYMENT_ID: "x",
      }),
      { admin: ADMIN, minter: undefined, adminDelay: 60n, deploymentId: "x" },
    );
    assert.throws(() => deployOptionsFromEnv({ MINTER_ADDRESS: "0x12" }), /MINTER_ADDRESS must be/);
    assert.throws(() => deployOptionsFromEnv({ ADMIN_DELAY_SECONDS: "2d" }), /ADMIN_DELAY_SECONDS/);
  });
});
