import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { collectiblesAbi } from "@collectibles/contracts";
import { createPublicClient, http } from "viem";
import { node22 } from "../src/artifact.ts";
import { getDeployment } from "../src/index.ts";
import {
  deployCollectibles,
  HARDHAT_ACCOUNT_0,
  type LocalChain,
  startLocalChain,
} from "../src/testing.ts";
import { answers, processOnPort, run } from "../testkit/processes.ts";

const folder = mkdtempSync(path.join(tmpdir(), "deploy-testing-"));
after(() => rmSync(folder, { recursive: true, force: true }));

describe("startLocalChain and deployCollectibles", () => {
  let chain: LocalChain;
  before(async () => {
    chain = await startLocalChain();
  });
  after(() => chain?.stop());

  it("starts a Hardhat node on a free port that answers chain id 31337", async () => {
    assert.equal(chain.chainId, 31337);
    assert.equal(chain.rpcUrl, `http://127.0.0.1:${chain.port}`);
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    assert.equal(await client.getChainId(), 31337);
  });

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
        args: [minterRole, HARDHAT_ACCOUNT_0],
      }),
      false,
    );
    assert.equal(
      await client.readContract({ ...read, functionName: "defaultAdmin" }),
      HARDHAT_ACCOUNT_0,
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
        args: [minterRole, HARDHAT_ACCOUNT_0],
      }),
      true,
    );
    assert.equal(await client.readContract({ ...read, functionName: "hookGasBudget" }), 1_000_000n);
  });

  it("stop() ends the node and everything it started, and may be called twice", async () => {
    const other = await startLocalChain();
    assert.ok(processOnPort(other.port), "the node runs");
    await other.stop();
    await other.stop();
    assert.equal(await answers(other.rpcUrl), false);
    assert.equal(processOnPort(other.port), undefined);
  });
});

describe("startLocalChain failures and clean-up", () => {
  it("rejects with the node's own message when the port is taken", async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      await assert.rejects(
        startLocalChain({ port }),
        /exited .*before answering[\s\S]*(EADDRINUSE|in use)/i,
      );
      assert.equal(processOnPort(port), undefined);
    } finally {
      server.close();
    }
  });

  it("kills the node when the process that started it exits without stop()", async () => {
    const script = [
      `import { startLocalChain } from ${JSON.stringify(new URL("../src/testing.ts", import.meta.url).href)};`,
      "const chain = await startLocalChain();",
      "console.log(chain.port);",
      // No stop(): the exit hook must end the node.
    ].join("\n");
    const { code, output } = await run(node22(), ["--input-type=module", "-e", script], {});
    assert.equal(code, 0, output);
    const port = Number(output.trim().split("\n").at(-1));
    assert.ok(port > 0, output);
    // The node gets SIGKILL synchronously at exit; give the kernel a moment to reap it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(processOnPort(port), undefined);
    assert.equal(await answers(`http://127.0.0.1:${port}`), false);
  });

  it("deployCollectibles says which chain it cannot reach", async () => {
    await assert.rejects(
      deployCollectibles({ rpcUrl: "http://127.0.0.1:9", deploymentsDir: folder }),
      /Cannot reach the chain at http:\/\/127\.0\.0\.1:9/,
    );
  });
});
