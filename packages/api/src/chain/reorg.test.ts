/**
 * Confirmed never lies: on the local chain (anvil's `anvil_reorg`), blocks holding the mints of
 * confirmed objects are replaced, with their transactions dropped or mined again, and the API
 * takes the confirmations back, sends what the chain lacks again, and ends with every claim on
 * the chain exactly once, the API, the indexer and the chain agreeing, and the feed telling it in
 * order. An object turns final when its block passes the chain's finalized block, never before.
 */
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { apiProcessesOnChainPerFile, jsonOf } from "../test/apiProcess.ts";
import { until } from "../test/faults.ts";
import { reorgKit } from "./reorg.testkit.ts";

const API_KEY = "ck_test_reorgreorgreorgreorgreorgreorg";
const TIMEOUT = 240_000;

const processes = apiProcessesOnChainPerFile({
  name: "reorg",
  apiKey: API_KEY,
  settings: (chain) => ({ ...chain.env, CONFIRM_TIMEOUT_MS: "10000" }),
});
const { start, call, createCollectible, stack } = processes;

const reorg = reorgKit(processes);

describe("a reorg that drops the blocks of confirmed mints", { timeout: TIMEOUT }, () => {
  it("withdraws the confirmations, sends the claims again, and ends with each on the chain once, counts agreeing and the feed in order", async () => {
    const api = await start();
    const collectible = await reorg.newCollectible(api, "Reorged", 5);
    const claims: string[] = [];
    for (const who of ["a", "b", "c"]) {
      claims.push((await reorg.confirmedClaim(api, collectible.id, `${who}@reorg.example`)).id);
    }
    // The last three blocks hold the three mints: replace them with empty ones.
    await reorg.rpc("anvil_reorg", [3, []]);
    for (const id of claims) expect(await reorg.onChain(collectible.id, id)).toBe(false);

    await reorg.recovered(api, collectible.id, claims);
    const feed = await reorg.eventsOf(api, claims);
    for (const id of claims) {
      expect(feed.filter((line) => line.endsWith(id))).toEqual([
        `claim.confirmed ${id}`,
        `claim.reorged ${id}`,
        `claim.confirmed ${id}`,
      ]);
    }
    const ready = await jsonOf(await call(api.url, "GET", "/ready"));
    const finality = ready.data.checks.find((c: { name: string }) => c.name === "finality");
    expect(finality.message).toMatch(/last reorg: \d+ blocks from block \d+/);

    // After the reorg the relayer's nonce is the chain's again: new work confirms.
    const after = await reorg.newCollectible(api, "After the reorg", 2);
    await reorg.confirmedClaim(api, after.id, "d@reorg.example");
    await api.process.stop();
  });

  it("takes back a collectible and its claims sent in one batch, the transactions mined again in other blocks, and confirms each again once", async () => {
    const api = await start();
    const org = await jsonOf(await call(api.url, "POST", "/organizations", { name: "Batched" }));
    const created = await jsonOf(await createCollectible(api.url, org.data.id, "Batched", 10));
    const items = ["e", "f", "g", "h"].map((who) => ({
      collectible_id: created.data.id,
      email: `${who}@reorg.example`,
    }));
    const batch = await jsonOf(await call(api.url, "POST", "/claims/batch", { items }));
    const claims: string[] = batch.data.map((item: { claim: { id: string } }) => item.claim.id);
    const collectibleId: string = created.data.id;
    await reorg.healed(api, collectibleId, claims);
    const sent: Hex[] = [(await reorg.get(api, `/collectibles/${collectibleId}`)).transaction_hash];
    for (const id of claims) sent.push((await reorg.get(api, `/claims/${id}`)).transaction_hash);
    const transactions = [...new Set(sent)];
    const raw = await Promise.all(
      transactions.map((hash) => reorg.rpc("eth_getRawTransactionByHash", [hash])),
    );
    const head = await stack.client.getBlockNumber();
    const firstBlock = (await stack.client.getTransactionReceipt({ hash: transactions[0] as Hex }))
      .blockNumber;
    // Replace every block from the collectible's creation on; its transactions are mined again,
    // in order, one block later each than before.
    const depth = Number(head - firstBlock) + 1;
    await reorg.rpc("anvil_reorg", [depth, raw.map((tx, i) => [tx, Math.min(i + 1, depth - 1)])]);

    await reorg.recovered(api, collectibleId, claims);
    const feed = await reorg.eventsOf(api, [collectibleId]);
    expect(feed).toEqual([
      `collectible.confirmed ${collectibleId}`,
      `collectible.reorged ${collectibleId}`,
      `collectible.confirmed ${collectibleId}`,
    ]);
    await api.process.stop();
  });
});

describe("a reorg while the API is down", { timeout: TIMEOUT }, () => {
  it("is found when the API starts again: the claims the chain lost are sent again and confirmed once", async () => {
    let api = await start();
    const collectible = await reorg.newCollectible(api, "Reorged offline", 3);
    const claims = [(await reorg.confirmedClaim(api, collectible.id, "offline@reorg.example")).id];
    await api.process.stop();
    await reorg.rpc("anvil_reorg", [1, []]);
    expect(await reorg.onChain(collectible.id, claims[0] as string)).toBe(false);
    api = await start();
    await reorg.recovered(api, collectible.id, claims);
    await api.process.stop();
  });
});

describe("finality", { timeout: TIMEOUT }, () => {
  it("makes a confirmed claim final only once its block is at or below the chain's finalized block", async () => {
    const api = await start();
    const collectible = await reorg.newCollectible(api, "Final", 2);
    const claim = await reorg.confirmedClaim(api, collectible.id, "final@reorg.example");
    expect(claim.finalized_at).toBeNull();
    const receipt = await stack.client.getTransactionReceipt({ hash: claim.transaction_hash });
    expect(claim.block_number).toBe(Number(receipt.blockNumber));
    const listed = async (final: boolean) =>
      (
        await jsonOf(
          await call(api.url, "GET", `/claims?collectible_id=${collectible.id}&finalized=${final}`),
        )
      ).data.map((row: { id: string }) => row.id);
    expect(await listed(false)).toEqual([claim.id]);
    expect(await listed(true)).toEqual([]);
    // anvil's finalized block is 64 below its head.
    await reorg.rpc("anvil_mine", [62]);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await reorg.get(api, `/claims/${claim.id}`)).finalized_at).toBeNull();
    await reorg.rpc("anvil_mine", [2]);
    const final = await until("the claim final", async () => {
      const row = await reorg.get(api, `/claims/${claim.id}`);
      return row.finalized_at ? row : undefined;
    });
    expect(final.status).toBe("confirmed");
    expect(await listed(true)).toEqual([claim.id]);
    expect(await listed(false)).toEqual([]);
    expect((await reorg.get(api, `/collectibles/${collectible.id}`)).finalized_at).not.toBeNull();
    const feed = await reorg.eventsOf(api, [claim.id]);
    expect(feed).toEqual([`claim.confirmed ${claim.id}`, `claim.finalized ${claim.id}`]);
    await api.process.stop();
  });
});

describe("a transaction the chain dropped", { timeout: TIMEOUT }, () => {
  it("is given up and sent again from the chain's nonce, and the claim confirms once", async () => {
    // Not healed by a fee replacement at the same nonce: that comes only after ten minutes here.
    const api = await start({ TX_REPLACE_AFTER_MS: "600000" });
    const collectible = await reorg.newCollectible(api, "Dropped", 3);
    // The node holds the claim's transaction unmined, then forgets it, as after an eviction.
    await reorg.rpc("evm_setAutomine", [false]);
    const res = await jsonOf(
      await call(api.url, "POST", "/claims", {
        collectible_id: collectible.id,
        email: "dropped@reorg.example",
      }),
    );
    const pooled = async () =>
      Number(((await reorg.rpc("txpool_status")) as { pending: string }).pending);
    await until("the claim's transaction sent", async () =>
      (await pooled()) > 0 ? true : undefined,
    );
    await reorg.rpc("anvil_dropAllTransactions");
    await reorg.rpc("evm_setAutomine", [true]);
    await reorg.healed(api, collectible.id, [res.data.id]);
    expect(await reorg.claimedOnChain(collectible.id)).toBe(1n);
    await api.process.stop();
  });
});
