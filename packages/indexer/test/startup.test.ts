/**
 * Starting the indexer: the mistakes an operator can make stop it with the fix in the message,
 * and a fresh local chain never sees the rows of the node before it.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import { createPostgresDatabase, type ThrowAwayDatabase } from "@collectibles/devkit/postgres";
import { killAllProcesses as killAllIndexers } from "@collectibles/devkit/processes";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
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
  let database: ThrowAwayDatabase;

  beforeAll(async () => {
    database = await createPostgresDatabase(inject("postgresUrl"), "indexer_startup");
    chain = await startLocalChain();
    chains.push(chain);
  });

  afterAll(async () => {
    for (const indexer of indexers) await indexer.stop();
    killAllIndexers();
    for (const c of chains) await c.stop();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test("without DATABASE_URL it exits, naming it and what sets it", async () => {
    const deploymentsDir = tempDir("indexer-nodb-");
    // A chain of its own: the cases run side by side, and two deploys from one account on one
    // chain would race for its nonce.
    const own = await startLocalChain();
    chains.push(own);
    await deployCollectibles({ rpcUrl: own.rpcUrl, deploymentsDir });
    // An empty DATABASE_URL is an unset one: Ponder would fall back to a PGlite of its own.
    const start = startIndexer({ rpcUrl: own.rpcUrl, deploymentsDir, databaseUrl: "" });
    await expect(start).rejects.toThrow(/DATABASE_URL is not set.*pnpm start/s);
  });

  test("without a deployment for the chain it exits, naming the command that deploys", async () => {
    const start = startIndexer({
      rpcUrl: chain.rpcUrl,
      deploymentsDir: tempDir("indexer-none-"),
      databaseUrl: database.url,
    });
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
    const start = startIndexer({ rpcUrl: chain.rpcUrl, deploymentsDir, databaseUrl: database.url });
    await expect(start).rejects.toThrow(
      /No contract at 0x000000000000000000000000000000000000dEaD/,
    );
  });

  test("when RPC_URL does not answer it exits, naming it", async () => {
    const deploymentsDir = tempDir("indexer-rpc-");
    await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir });
    const start = startIndexer({
      rpcUrl: "http://127.0.0.1:9",
      deploymentsDir,
      databaseUrl: database.url,
    });
    await expect(start).rejects.toThrow(/RPC_URL http:\/\/127\.0\.0\.1:9 is unreachable/);
  });

  // Two chains and two indexers one after the other: more time than the file's other cases.
  test("a fresh local chain starts from empty tables, not the previous node's rows", async () => {
    // Same database and schema, same chain id, same contract address and deployment block, a
    // collectible in the same block at the same log index: only the chain instance differs.
    const deploymentsDir = tempDir("indexer-deployments-");
    /** A collectible, buried under Ponder's finality, then an indexer that has read it all. */
    const indexedChain = async () => {
      const instance = await startLocalChain();
      chains.push(instance);
      const { address } = await deployCollectibles({ rpcUrl: instance.rpcUrl, deploymentsDir });
      const actions = chainActions(instance.rpcUrl, address);
      const created = await actions.createCollectible({ id: randomUUID(), totalSupply: 1n });
      // History, not live blocks: what Ponder caches (ponder_sync) and resumes from on a restart.
      await actions.mine(62);
      const head = await actions.blockNumber();
      const indexer = await startIndexer({
        rpcUrl: instance.rpcUrl,
        deploymentsDir,
        databaseUrl: database.url,
        schema: "fresh_chain",
        waitForReady: true,
      });
      indexers.push(indexer);
      const reader = createIndexerReader({ url: indexer.url });
      await waitUntil("the chain indexed", () => reader.isIndexed(head));
      return { instance, address, created, indexer, reader };
    };

    const first = await indexedChain();
    expect(await first.reader.getCollectible(first.created.id)).not.toBeNull();
    await first.indexer.stop();
    await first.instance.stop();

    const second = await indexedChain();
    expect(second.address).toBe(first.address);
    expect(second.created.receipt.blockNumber).toBe(first.created.receipt.blockNumber);
    expect(await second.reader.getCollectible(second.created.id)).not.toBeNull();
    expect(await second.reader.getCollectible(first.created.id)).toBeNull();
  }, 300_000);
});
