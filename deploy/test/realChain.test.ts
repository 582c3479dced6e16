/**
 * The real-chain path, offline: a local node with a chain id that is neither 31337 nor 1337
 * stands in for a real chain. Ignition treats it as one (confirmation prompt, 5 confirmations),
 * hardhat-verify accepts it, the key comes from DEPLOYER_PRIVATE_KEY, and a fake explorer records
 * what verification submits.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { collectiblesAbi, DEFAULT_HOOK_GAS_BUDGET } from "@collectibles/contracts";
import {
  DEV_ACCOUNT_0,
  DEV_ACCOUNTS,
  type LocalChain,
  startLocalChain,
} from "@collectibles/devkit/chain";
import { concatHex, createPublicClient, encodeAbiParameters, type Hex, http } from "viem";
import { deployWithIgnition } from "../scripts/deployWithIgnition.ts";
import {
  buildInfoOf,
  collectiblesArtifact,
  deployRoot,
  hardhatCli,
  node22,
} from "../src/artifact.ts";
import { type Deployment, getDeployment } from "../src/index.ts";
import { deployCollectibles } from "../src/testing.ts";
import {
  assertSameBytecode,
  type ImmutableReferences,
  withImmutables,
} from "../test-support/bytecode.ts";
import { run, runDeployScript } from "../test-support/deployScript.ts";
import { type FakeExplorer, startFakeExplorer } from "../test-support/fakeExplorer.ts";
import { fakeHre } from "../test-support/fakeHre.ts";

const CHAIN_ID = 424242;
const { address: DEPLOYER, privateKey: DEPLOYER_KEY } = DEV_ACCOUNTS[1];
const MINTER = DEV_ACCOUNTS[4].address;
const folder = mkdtempSync(path.join(tmpdir(), "deploy-real-chain-"));
const dir = pathToFileURL(`${folder}/`);
const deploymentId = `test-${randomBytes(4).toString("hex")}`;
const journal = path.join(deployRoot, "ignition", "deployments", deploymentId);

let chain: LocalChain;
before(async () => {
  chain = await startLocalChain({ chainId: CHAIN_ID });
});
after(async () => {
  await chain?.stop();
  rmSync(folder, { recursive: true, force: true });
  rmSync(journal, { recursive: true, force: true });
});

const liveEnv = () => ({
  RPC_URL: chain.rpcUrl,
  CHAIN_ID: String(CHAIN_ID),
  DEPLOYER_PRIVATE_KEY: DEPLOYER_KEY,
  DEPLOYMENTS_DIR: folder,
});

describe("scripts/deploy.ts on a real chain (pnpm deploy)", () => {
  it("without a terminal to confirm in, wants HARDHAT_IGNITION_CONFIRM_DEPLOYMENT and sends nothing", async () => {
    const hre = fakeHre("live", { type: "http", chainId: CHAIN_ID, url: chain.rpcUrl });
    await assert.rejects(
      deployWithIgnition(hre, { interactive: false, log: () => {} }),
      /needs a confirmation: .*HARDHAT_IGNITION_CONFIRM_DEPLOYMENT=1\. Nothing was sent/,
    );
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    assert.equal(await client.getBlockNumber(), 0n);
  });

  it("refuses a node that serves another chain than CHAIN_ID", async () => {
    const hre = fakeHre("live", { type: "http", chainId: 100, url: chain.rpcUrl });
    await assert.rejects(
      deployWithIgnition(hre, { log: () => {} }),
      new RegExp(`configured for chain 100 but 127\\.0\\.0\\.1:\\d+ serves chain ${CHAIN_ID}`),
    );
  });

  it("deploys with HARDHAT_IGNITION_CONFIRM_DEPLOYMENT=1, from the key, with a two-day admin delay and HOOK_GAS_BUDGET", async () => {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    // Ignition waits for 5 confirmations on a real chain: keep mining while it runs.
    let mining = true;
    const miner = (async () => {
      while (mining) {
        await client.request({ method: "evm_mine" } as never).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const result = await runDeployScript("live", {
      ...liveEnv(),
      MINTER_ADDRESS: MINTER,
      HOOK_GAS_BUDGET: "60000",
      IGNITION_DEPLOYMENT_ID: deploymentId,
      HARDHAT_IGNITION_CONFIRM_DEPLOYMENT: "1",
    }).finally(() => {
      mining = false;
    });
    await miner;
    assert.equal(result.code, 0, result.output);

    const deployment = getDeployment(CHAIN_ID, dir);
    const receipt = await client.getTransactionReceipt({ hash: deployment.deployTransaction });
    assert.equal(receipt.from, DEPLOYER.toLowerCase());
    assert.equal(Number(receipt.blockNumber), deployment.deployBlock);
    const read = { address: deployment.address, abi: collectiblesAbi } as const;
    const minterRole = await client.readContract({ ...read, functionName: "MINTER_ROLE" });
    assert.equal(await client.readContract({ ...read, functionName: "defaultAdmin" }), DEPLOYER);
    assert.equal(
      await client.readContract({ ...read, functionName: "defaultAdminDelay" }),
      172_800,
    );
    assert.equal(
      await client.readContract({ ...read, functionName: "hasRole", args: [minterRole, MINTER] }),
      true,
    );
    assert.equal(await client.readContract({ ...read, functionName: "hookGasBudget" }), 60_000n);
  });
});

const require = createRequire(import.meta.url);
const solc = require("solc") as { version(): string; compile(input: string): string };

interface SolcContract {
  evm: {
    bytecode: { object: string };
    deployedBytecode: { object: string; immutableReferences: ImmutableReferences };
  };
}

describe("verification on Etherscan, Blockscout and Sourcify, offline", () => {
  // An explorer recompiles the standard-JSON input hardhat-verify submits and accepts the contract
  // only when the result is the code on chain. The fake explorer records the submissions; the
  // npm solc (soljson) does the explorer's part.
  let explorer: FakeExplorer;
  let deployment: Deployment;
  let verifyOutput = "";
  before(async () => {
    explorer = await startFakeExplorer();
    deployment = await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir: folder });
    const { code, output } = await run(
      node22(),
      [
        hardhatCli(deployRoot),
        "verify",
        "--network",
        "live",
        deployment.address,
        "0",
        DEV_ACCOUNT_0,
        DEV_ACCOUNT_0,
        String(DEFAULT_HOOK_GAS_BUDGET),
      ],
      {
        ...liveEnv(),
        ETHERSCAN_API_KEY: "offline-test-key",
        ETHERSCAN_URL: `${explorer.url}/etherscan-ui`,
        ETHERSCAN_API_URL: `${explorer.url}/etherscan/api`,
        BLOCKSCOUT_URL: `${explorer.url}/blockscout`,
        SOURCIFY_API_URL: `${explorer.url}/sourcify`,
      },
    );
    verifyOutput = output;
    assert.equal(code, 0, output);
  });
  after(() => explorer?.close());

  it("`hardhat verify` submits the build's own input, with the exact compiler, to every explorer", async () => {
    assert.deepEqual(
      explorer.submissions.map((s) => s.explorer).sort(),
      ["blockscout", "etherscan", "sourcify"],
      verifyOutput,
    );
    const buildInfo = buildInfoOf(await collectiblesArtifact());
    for (const submission of explorer.submissions) {
      assert.equal(submission.address.toLowerCase(), deployment.address.toLowerCase());
      // hardhat-verify adds the (empty) libraries setting; everything else is the build's input.
      const input = submission.input as { settings: { libraries?: object } };
      const { libraries, ...settings } = input.settings;
      assert.deepEqual(libraries, {});
      assert.deepEqual({ ...input, settings }, buildInfo.input, submission.explorer);
      assert.equal(
        submission.contractName,
        "npm/@collectibles/contracts@local/contracts/Collectibles.sol:Collectibles",
      );
      assert.equal(submission.compilerVersion, `v${buildInfo.solcLongVersion}`);
    }
    // The compiler explorers are asked for is the npm solc this test compiles with.
    assert.equal(solc.version().split(".Emscripten")[0], buildInfo.solcLongVersion);
  });

  it("compiling the submitted input gives exactly the code on chain, metadata hash included", async () => {
    const submission = explorer.submissions[0];
    assert.ok(submission);
    const output = JSON.parse(solc.compile(JSON.stringify(submission.input))) as {
      errors?: { severity: string; formattedMessage: string }[];
      contracts: Record<string, Record<string, SolcContract>>;
    };
    const errors = (output.errors ?? []).filter((e) => e.severity === "error");
    assert.deepEqual(errors, [], errors.map((e) => e.formattedMessage).join("\n"));
    const [file, name] = submission.contractName.split(":") as [string, string];
    const compiled = output.contracts[file]?.[name]?.evm;
    assert.ok(compiled, `${submission.contractName} in the output`);

    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    // Runtime code: the one immutable (the hook gas budget, used in a few places) is what the
    // constructor fills in; everything else, metadata hash included, must match as compiled.
    const references = compiled.deployedBytecode.immutableReferences;
    assert.equal(Object.keys(references).length, 1, "one immutable");
    const onChain = await client.getCode({ address: deployment.address });
    assertSameBytecode(
      onChain,
      withImmutables(compiled.deployedBytecode.object, references, DEFAULT_HOOK_GAS_BUDGET),
      "runtime code on chain",
    );
    // The CBOR metadata (IPFS hash of the metadata, solc 0.8.37) is part of what matched.
    assert.match(onChain ?? "", /a264697066735822[0-9a-f]{68}64736f6c6343000825(0033)$/);

    // Creation code + the submitted constructor arguments = the deployment transaction's input.
    const args = encodeAbiParameters(
      [{ type: "uint48" }, { type: "address" }, { type: "address" }, { type: "uint256" }],
      [0, DEV_ACCOUNT_0, DEV_ACCOUNT_0, DEFAULT_HOOK_GAS_BUDGET],
    );
    const etherscan = explorer.submissions.find((s) => s.explorer === "etherscan");
    assert.equal(`0x${etherscan?.constructorArguments}`, args);
    const tx = await client.getTransaction({ hash: deployment.deployTransaction });
    assertSameBytecode(
      tx.input,
      concatHex([`0x${compiled.bytecode.object}` as Hex, args]),
      "deployment transaction input",
    );
  });
});
