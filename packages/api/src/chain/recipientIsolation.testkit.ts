/**
 * Choreography the recipient-isolation tests share: claims stored while the chain is held, so
 * the relayer sends them in one batch, and waiting until every claim is final.
 */
import type { Address } from "viem";
import { expect } from "vitest";
import { until } from "../test/faults.ts";
import type { TestApp } from "../test/testApp.ts";

export interface ApiClaim {
  id: string;
  status: string;
  edition: number | null;
  failure_reason: string | null;
  transaction_hash: string | null;
  minted_to: Address;
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
