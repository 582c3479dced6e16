/**
 * A claim batch's gas limit and what happens when a batch runs out of gas anyway, on the real
 * local chain: the limit keeps a hook budget for every claim to a receiver with code (several
 * claims to one contract included), so a hook that spends more when mined than when estimated
 * does not run the batch out of gas; a batch that runs out of gas all the same (plain accounts
 * that delegate with EIP-7702 between estimate and mining) is split in halves, not resent one
 * claim per transaction.
 */
import { claimBatchGasCeiling, DEFAULT_HOOK_GAS_BUDGET } from "@collectibles/contracts";
import {
  adjustableBurnerReceiverMock,
  gasBurnerReceiverMock,
} from "@collectibles/contracts/testing";
import { type Address, type Hex, type PublicClient, parseGwei } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChainAccounts, devAccount } from "../test/chainAccounts.ts";
import { until } from "../test/faults.ts";
import type { TestApp } from "../test/testApp.ts";
import {
  type ApiClaim,
  type AppOnChain,
  finalClaims,
  startAppOnChain,
} from "./recipientIsolation.testkit.ts";

const TIMEOUT = 180_000;
/** What the receivers' hooks burn when mined: within the default hook budget (50,000). */
const MINED_BURN = 40_000n;
/** A fee that puts a transaction ahead of the relayer's in the same block. */
const AHEAD = { maxPriorityFeePerGas: parseGwei("100"), maxFeePerGas: parseGwei("200") };

let app: AppOnChain | undefined;
let t: TestApp;
let client: PublicClient;
let org: { id: string };

let on: ChainAccounts;
const rpc = (method: string, params: unknown[] = []) => on.rpc(method, params);
const relayerNonce = () => client.getTransactionCount({ address: devAccount(0).address });

beforeAll(async () => {
  app = await startAppOnChain({
    env: {
      CONFIRM_TIMEOUT_MS: "0",
      // The tests hold a batch in the pool while they act: no fee bump may reorder it.
      TX_REPLACE_AFTER_MS: "120000",
    },
  });
  ({ t, on } = app);
  client = on.client;
  org = (await t.call("POST", "/organizations", { json: { name: "Gas Co" } })).body.data;
}, 180_000);

afterAll(() => app?.stop());

async function createUser(email: string, wallet: Address) {
  const res = await t.call("POST", "/users", {
    json: { organization_id: org.id, email, wallet_address: wallet },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string };
}

async function confirmedCollectible(total: number): Promise<string> {
  const created = await t.call("POST", "/collectibles", {
    json: { organization_id: org.id, name: "Gas", total_count: total },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const id: string = created.body.data.id;
  await until("the collectible confirmed", async () => {
    const body = (await t.call("GET", `/collectibles/${id}`)).body.data;
    return body.status === "confirmed" ? true : undefined;
  });
  return id;
}

const pooled = async () =>
  (
    (await rpc("eth_getBlockByNumber", ["pending", false])) as {
      transactions: Hex[];
    }
  ).transactions;

/**
 * Stores the claims in one request while no block is mined, waits for the relayer's batch in the
 * pool, runs `meanwhile` (a transaction that goes ahead of the batch in its block), then mines.
 */
async function claimWhileHeld(
  items: { collectible_id: string; holder_id: string }[],
  meanwhile: () => Promise<Hex>,
): Promise<{ claims: ApiClaim[]; first: Hex; ahead: Hex }> {
  await rpc("evm_setAutomine", [false]);
  try {
    const res = await t.call("POST", "/claims/batch", { json: { items } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const claims: ApiClaim[] = res.body.data.map((r: { claim: ApiClaim }) => r.claim);
    expect(claims).toHaveLength(items.length);
    const [first] = await until("the relayer's batch in the pool", async () => {
      const hashes = await pooled();
      return hashes.length > 0 ? hashes : undefined;
    });
    if (!first) throw new Error("no batch");
    const ahead = await meanwhile();
    await until("both in the pool", async () => ((await pooled()).length >= 2 ? true : undefined));
    await rpc("evm_mine");
    return { claims, first, ahead };
  } finally {
    await rpc("evm_setAutomine", [true]);
  }
}

describe("a claim batch's gas", () => {
  it(
    "mines several claims to one receiver whose hook costs more when mined than when estimated in one transaction",
    async () => {
      const receiver = await on.deployFrom(10, adjustableBurnerReceiverMock, [0n]);
      const holder = await createUser("raises@gas.example", receiver);
      const collectibles: string[] = [];
      for (let i = 0; i < 10; i++) collectibles.push(await confirmedCollectible(1));
      const before = await relayerNonce();

      const { claims, first, ahead } = await claimWhileHeld(
        collectibles.map((id) => ({ collectible_id: id, holder_id: holder.id })),
        // The hook spends more from now on: after the relayer estimated, before its batch mines.
        () =>
          on.walletOf(10).writeContract({
            address: receiver,
            abi: adjustableBurnerReceiverMock.abi,
            functionName: "setBurn",
            args: [MINED_BURN],
            ...AHEAD,
          }),
      );
      const sent = await client.getTransaction({ hash: first });
      const raised = await client.getTransactionReceipt({ hash: ahead });
      const batch = await client.getTransactionReceipt({ hash: first });
      expect(raised.blockNumber).toBe(batch.blockNumber);
      expect(raised.transactionIndex).toBeLessThan(batch.transactionIndex);
      expect(batch.status).toBe("success");
      expect(batch.gasUsed).toBeGreaterThan(10n * MINED_BURN);
      expect(sent.gas).toBeLessThanOrEqual(claimBatchGasCeiling(10, DEFAULT_HOOK_GAS_BUDGET));

      const rows = await finalClaims(
        t,
        claims.map((c) => c.id),
      );
      for (const row of rows) {
        expect(row).toMatchObject({ status: "confirmed", transaction_hash: first });
      }
      expect(await relayerNonce()).toBe(before + 1);
    },
    TIMEOUT,
  );

  it(
    "splits a batch that runs out of gas when mined into halves, not one transaction per claim",
    async () => {
      const burner = await on.deployFrom(10, gasBurnerReceiverMock, [MINED_BURN]);
      const indexes = [14, 15, 16, 17, 18, 19, 20, 21];
      const accounts = indexes.map((i) => devAccount(i));
      const holders: { id: string }[] = [];
      for (const [i, account] of accounts.entries()) {
        holders.push(await createUser(`delegates-${i}@gas.example`, account.address));
      }
      const collectibleId = await confirmedCollectible(accounts.length);
      const before = await relayerNonce();

      const { claims, first, ahead } = await claimWhileHeld(
        holders.map((h) => ({ collectible_id: collectibleId, holder_id: h.id })),
        // Plain accounts when estimated, each delegates to a gas-burning receiver before mining.
        async () => {
          const authorizationList = await Promise.all(
            indexes.map((i) => on.walletOf(i).signAuthorization({ contractAddress: burner })),
          );
          return on.walletOf(10).sendTransaction({
            authorizationList,
            to: devAccount(10).address,
            ...AHEAD,
          });
        },
      );
      expect((await client.getTransactionReceipt({ hash: ahead })).status).toBe("success");
      expect((await client.getTransactionReceipt({ hash: first })).status).toBe("reverted");

      const rows = await finalClaims(
        t,
        claims.map((c) => c.id),
      );
      for (const row of rows) expect(row.status).toBe("confirmed");
      // The halves of eight: two transactions of four, not eight of one.
      const byTransaction = new Map<string, number>();
      for (const row of rows) {
        const hash = row.transaction_hash as string;
        byTransaction.set(hash, (byTransaction.get(hash) ?? 0) + 1);
      }
      expect([...byTransaction.values()]).toEqual([4, 4]);
      expect(await relayerNonce()).toBe(before + 3);
    },
    TIMEOUT,
  );
});
