/**
 * Starting the indexer: the mistakes an operator can make stop it with the fix in the message,
 * and a fresh local chain never sees the rows of the node before it (PGlite, the default).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import { killAllProcesses as killAllIndexers } from "@collectibles/devkit/processes";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createIndexerReader } from "../indexerReader.ts";
import { type RunningIndexer, startIndexer } from "../testing/startIndexer.ts";
import { chainActions } from "./chainActions.ts";
import { waitUntil } from "./waitUntil.ts";

// Each case waits mostly on a Ponder process booting: run them side by side.
describe.concurrent("indexer start-up", () => {
  const dirs: string[] = [];
  const chains: LocalChain[] = [];
  const indexers: RunningIndexer[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  let chain: LocalChain;

  beforeAll(async () => {
    chain = await startLocalChain();
    chains.push(chain);
  });

  afterAll(async () => {
    for (const indexer of indexers) await indexer.stop();
    killAllIndexers();
    for (const c of chains) await c.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test("without a deployment for the chain it exits, naming the command that deploys", async () => {
    const start = startIndexer({ rpcUrl: chain.rpcUrl, deploymentsDir: tempDir("indexer-none-") });
    await expect(start).rejects.toThrow(
      /No Collectibles deployment for chain 31337.*pnpm deploy:local/s,
    );
  });

  test("when the deployment's contract is not on this chain it exits, saying so", async () => {
    const deploymentsDir = tempDir("indexer-stale-");
    writeFileSync(
      path.join(deploymentsDir, "31337.json"),
      JSON.stringify({
        chainId: 31337,
        contract: "Collectibles",
        address: "0x000000000000000000000000000000000000dEaD",
        deployBlock: 0,
        deployTransaction: `0x${"0".repeat(64)}`,
      }),
    );
    const start = startIndexer({ rpcUrl: chain.rpcUrl, deploymentsDir });
    await expect(start).rejects.toThrow(
      /No contract at 0x000000000000000000000000000000000000dEaD/,
    );
  });

  test("when RPC_URL does not answer it exits, naming it", async () => {
    const deploymentsDir = tempDir("indexer-rpc-");
    await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir });
    const start = startIndexer({ rpcUrl: "http://127.0.0.1:9", deploymentsDir });
    await expect(start).rejects.toThrow(/RPC_URL http:\/\/127\.0\.0\.1:9 is unreachable/);
  });

  test("a fresh local chain starts from empty tables, not the previous node's rows", async () => {
    // Same data folder, same chain id, same contract address and deployment block: only the
    // chain instance differs.
    const dataDir = tempDir("indexer-data-");
    const deploymentsDir = tempDir("indexer-deployments-");
    const firstChain = await startLocalChain();
    chains.push(firstChain);
    const first = await deployCollectibles({ rpcUrl: firstChain.rpcUrl, deploymentsDir });
    const firstIndexer = await startIndexer({ rpcUrl: firstChain.rpcUrl, deploymentsDir, dataDir });
    indexers.push(firstIndexer);
    const old = await chainActions(firstChain.rpcUrl, first.address).createCollectible({
      totalSupply: 1n,
    });
    const firstReader = createIndexerReader({ url: firstIndexer.url });
    await waitUntil("the first node's collectible", async () =>
      firstReader.isIndexed(old.receipt.blockNumber),
    );
    expect(await firstReader.getCollectible(old.id)).not.toBeNull();
    await firstIndexer.stop();
    await firstChain.stop();

    const secondChain = await startLocalChain();
    chains.push(secondChain);
    const second = await deployCollectibles({ rpcUrl: secondChain.rpcUrl, deploymentsDir });
    expect(second.address).toBe(first.address);
    const secondIndexer = await startIndexer({
      rpcUrl: secondChain.rpcUrl,
      deploymentsDir,
      dataDir,
      waitForReady: true,
    });
    indexers.push(secondIndexer);
    const fresh = await chainActions(secondChain.rpcUrl, second.address).createCollectible({
      id: randomUUID(),
      totalSupply: 2n,
    });
    const reader = createIndexerReader({ url: secondIndexer.url });
    await waitUntil("the second node's collectible", async () =>
      reader.isIndexed(fresh.receipt.blockNumber),
    );
    expect(await reader.getCollectible(fresh.id)).not.toBeNull();
    expect(await reader.getCollectible(old.id)).toBeNull();
  }, 150_000);
});
