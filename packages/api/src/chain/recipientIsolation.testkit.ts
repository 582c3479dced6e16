/**
 * Choreography the recipient-isolation and batch gas tests share: a test app on a chain of its
 * own, claims stored while the chain is held, so the relayer sends them in one batch, and waiting
 * until every claim is final.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { startLocalChain } from "@collectibles/devkit/chain";
import type { ThrowAwayDatabase } from "@collectibles/devkit/postgres";
import { type RunningIndexer, startIndexer } from "@collectibles/indexer/testing";
import type { Address } from "viem";
import { expect } from "vitest";
import { type ChainAccounts, chainAccounts } from "../test/chainAccounts.ts";
import { until } from "../test/faults.ts";
import { startTestApp, type TestApp } from "../test/testApp.ts";
import { createPostgresDatabase } from "../test/testDatabase.ts";

export interface ApiClaim {
  id: string;
  status: string;
  edition: number | null;
  failure_reason: string | null;
  transaction_hash: string | null;
  minted_to: Address;
}

export interface AppOnChain {
  t: TestApp;
  /** The chain's development accounts and JSON-RPC. */
  on: ChainAccounts;
  contract: Address;
  indexerUrl: string;
  /** Stops and removes everything started (also what a failed start left). */
  stop(): Promise<void>;
}

/**
 * A test app (its relayer included) on a local chain of its own, with Collectibles deployed and
 * indexed on a database of its own. `beforeRelayer` runs once the contract is deployed, before
 * the indexer and the relayer start: the place for transactions from account #0 (the admin),
 * which would compete for nonces with the relayer sending from the same account.
 */
export async function startAppOnChain({
  env,
  hookGasBudget,
  beforeRelayer,
}: {
  /** The app's settings beside the chain's, the contract's and the indexer's. */
  env: Record<string, string>;
  hookGasBudget?: bigint;
  beforeRelayer?: (on: ChainAccounts, contract: Address) => Promise<void>;
}): Promise<AppOnChain> {
  const chain = await startLocalChain();
  const on = chainAccounts(chain.rpcUrl);
  const deploymentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-app-on-chain-"));
  let indexerDatabase: ThrowAwayDatabase | undefined;
  let indexer: RunningIndexer | undefined;
  let t: TestApp | undefined;
  const stop = async () => {
    await t?.close();
    await indexer?.stop();
    await chain.stop();
    await indexerDatabase?.drop();
    fs.rmSync(deploymentsDir, { recursive: true, force: true });
  };
  try {
    indexerDatabase = await createPostgresDatabase();
    const { address: contract } = await deployCollectibles({
      rpcUrl: chain.rpcUrl,
      deploymentsDir,
      hookGasBudget,
    });
    await beforeRelayer?.(on, contract);
    indexer = await startIndexer({
      rpcUrl: chain.rpcUrl,
      deploymentsDir,
      databaseUrl: indexerDatabase.url,
      waitForReady: true,
    });
    t = await startTestApp({
      env: {
        RPC_URL: chain.rpcUrl,
        CHAIN_ID: "31337",
        DEPLOYMENTS_DIR: deploymentsDir,
        INDEXER_URL: indexer.url,
        ...env,
      },
    });
    return { t, on, contract, indexerUrl: indexer.url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Where claims are stored and how the chain is held: the test app, its organization, JSON-RPC. */
export interface Scene {
  t: TestApp;
  organizationId: string;
  rpc: (method: string, params?: unknown[]) => Promise<unknown>;
}

/**
 * Stores a collectible and its claims while no block is mined, then lets the chain go: the
 * relayer finds every claim waiting at once and sends them in one batch. `beforeMining` runs
 * with the stored claims, in the same block as the collectible's creation.
 */
export async function claimTogether(
  { t, organizationId, rpc }: Scene,
  total: number,
  holders: { id: string }[],
  beforeMining: (claims: ApiClaim[], collectibleId: string) => Promise<void> = async () => {},
) {
  await rpc("evm_setAutomine", [false]);
  try {
    const created = await t.call("POST", "/collectibles", {
      json: { organization_id: organizationId, name: "Isolated", total_count: total },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const collectibleId: string = created.body.data.id;
    const claims: ApiClaim[] = [];
    for (const holder of holders) {
      const res = await t.call("POST", "/claims", {
        json: { collectible_id: collectibleId, holder_id: holder.id },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      claims.push(res.body.data);
    }
    await beforeMining(claims, collectibleId);
    // The relayer sends the creation as soon as it is stored; wait for it in the pool.
    await until("the creation in the pool", async () => {
      const pending = (await rpc("eth_getBlockByNumber", ["pending", false])) as {
        transactions: string[];
      };
      return pending.transactions.length > 0 ? true : undefined;
    });
    await rpc("evm_mine");
    return { collectibleId, claims };
  } finally {
    await rpc("evm_setAutomine", [true]);
  }
}

/** Every claim once final (confirmed with its edition, or failed). */
export async function finalClaims(t: TestApp, ids: string[]): Promise<ApiClaim[]> {
  return until(
    "every claim final",
    async () => {
      const rows: ApiClaim[] = [];
      for (const id of ids) rows.push((await t.call("GET", `/claims/${id}`)).body.data);
      const final = rows.every(
        (row) => row.status === "failed" || (row.status === "confirmed" && row.edition !== null),
      );
      return final ? rows : undefined;
    },
    { timeoutMs: 120_000 },
  );
}
