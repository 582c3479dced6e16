import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { collectiblesAbi, DEFAULT_HOOK_GAS_BUDGET } from "@collectibles/contracts";
import { DEV_ACCOUNTS, type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import { createPublicClient, getAddress, http } from "viem";
import { deployOptionsFromEnv, deployWithIgnition } from "../scripts/deployWithIgnition.ts";
import { collectiblesArtifact, deployRoot } from "../src/artifact.ts";
import { getDeployment } from "../src/index.ts";
import {
  assertSameBytecode,
  immutableReferencesOf,
  withImmutables,
} from "../test-support/bytecode.ts";
import { runDeployScript } from "../test-support/deployScript.ts";
import { fakeHre } from "../test-support/fakeHre.ts";

const ADMIN = DEV_ACCOUNTS[3].address;
const MINTER = DEV_ACCOUNTS[4].address;
const folder = mkdtempSync(path.join(tmpdir(), "deploy-script-"));
const dir = pathToFileURL(`${folder}/`);
// Its own Ignition journal, so the test never touches the one of your `pnpm deploy:local`.
const deploymentId = `test-${randomBytes(4).toString("hex")}`;
const journal = path.join(deployRoot, "ignition", "deployments", deploymentId);
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
    // The code on chain is the artifact's, metadata hash included: what explorers verify (with
    // the hook gas budget the constructor wrote into its immutable).
    const artifact = await collectiblesArtifact();
    assertSameBytecode(
      await client.getCode({ address: deployment.address }),
      withImmutables(
        artifact.deployedBytecode,
        immutableReferencesOf(artifact),
        DEFAULT_HOOK_GAS_BUDGET,
      ),
      "code deployed by Ignition",
    );

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

describe("deployWithIgnition guards", () => {
  const quiet = { log: () => {} };

  it("wants --network localhost or live", async () => {
    await assert.rejects(
      deployWithIgnition(fakeHre(undefined, { type: "http" }), quiet),
      /--network localhost/,
    );
    await assert.rejects(
      deployWithIgnition(fakeHre("node", { type: "edr-simulated" }), quiet),
      /--network localhost .* or --network live/,
    );
  });

  it("wants CHAIN_ID for a real chain", async () => {
    await assert.rejects(
      deployWithIgnition(fakeHre("live", { type: "http", url: "http://127.0.0.1:9" }), quiet),
      /Set CHAIN_ID/,
    );
  });

  it("names the host it cannot reach but never the URL's path, where API keys live", async () => {
    const hre = fakeHre("live", {
      type: "http",
      chainId: 100,
      url: "http://127.0.0.1:9/v2/secret-api-key",
    });
    await assert.rejects(deployWithIgnition(hre, quiet), (error: Error) => {
      assert.match(error.message, /Cannot reach the chain of network "live" at 127\.0\.0\.1:9/);
      assert.match(error.message, /Check RPC_URL/);
      assert.doesNotMatch(error.message, /secret-api-key/);
      return true;
    });
  });

  it("reads its options from the environment and names a malformed one", () => {
    assert.deepEqual(
      deployOptionsFromEnv({
        ADMIN_ADDRESS: ADMIN.toLowerCase(),
        ADMIN_DELAY_SECONDS: "60",
        HOOK_GAS_BUDGET: "80000",
        IGNITION_DEPLOYMENT_ID: "x",
      }),
      {
        admin: ADMIN,
        minter: undefined,
        adminDelay: 60n,
        hookGasBudget: 80_000n,
        deploymentId: "x",
      },
    );
    assert.throws(() => deployOptionsFromEnv({ MINTER_ADDRESS: "0x12" }), /MINTER_ADDRESS must be/);
    assert.throws(() => deployOptionsFromEnv({ ADMIN_DELAY_SECONDS: "2d" }), /ADMIN_DELAY_SECONDS/);
    assert.throws(() => deployOptionsFromEnv({ HOOK_GAS_BUDGET: "50k" }), /HOOK_GAS_BUDGET/);
  });
});
