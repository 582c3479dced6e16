import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { collectiblesAbi } from "@collectibles/contracts";
import { createPublicClient, getAddress, http } from "viem";
import { collectiblesArtifact, deployRoot } from "../src/artifact.ts";
import { getDeployment } from "../src/index.ts";
import { type LocalChain, startLocalChain } from "../src/testing.ts";
import { runDeployScript } from "../testkit/processes.ts";

const folder = mkdtempSync(path.join(tmpdir(), "deploy-script-"));
const dir = pathToFileURL(`${folder}/`);
// Its own Ignition journal, so the test never touches the one of your `pnpm deploy:local`.
const deploymentId = `test-${randomBytes(4).toString("hex")}`;
const journal = path.join(deployRoot, "ignition", "deployments", deploymentId);
const ADMIN = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"; // account #3
const MINTER = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65"; // account #4
// Account #1 of the well-known development mnemonic: never a real key.
const DEV_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

// Where Ignition remembers which node instance each local deployment id ran on.
const instances = path.join(deployRoot, "cache", ".hardhat-network-instances.json");

after(() => {
  rmSync(folder, { recursive: true, force: true });
  rmSync(journal, { recursive: true, force: true });
  if (existsSync(instances)) {
    const known = JSON.parse(readFileSync(instances, "utf8")) as Record<string, string>;
    delete known[deploymentId];
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
    IGNITION_DEPLOYMENT_ID: deploymentId,
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

  it("says the chain is unreachable and how to start it", async () => {
    const { code, output } = await runDeployScript("localhost", {
      ...env(),
      LOCAL_RPC_URL: "http://127.0.0.1:9",
    });
    assert.equal(code, 1, output);
    assert.match(output, /Cannot reach the chain of network "localhost" at 127\.0\.0\.1:9/);
    assert.match(output, /pnpm chain/);
    assert.doesNotMatch(output, /\n\s+at /, "no stack trace");
  });

  it("on a real chain refuses to run without CHAIN_ID, or when RPC_URL serves another chain", async () => {
    const live = { ...env(), RPC_URL: chain.rpcUrl, DEPLOYER_PRIVATE_KEY: DEV_KEY };
    const noChainId = await runDeployScript("live", live);
    assert.equal(noChainId.code, 1, noChainId.output);
    assert.match(noChainId.output, /Set CHAIN_ID/);

    const wrong = await runDeployScript("live", { ...live, CHAIN_ID: "100" });
    assert.equal(wrong.code, 1, wrong.output);
    assert.match(wrong.output, /configured for chain 100 but 127\.0\.0\.1:\d+ serves chain 31337/);
  });
});
