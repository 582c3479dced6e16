/**
 * What the reorg tests share: an API process on a local chain stack, and reads of the API, the
 * chain and the indexer that say whether a reorg has been seen and healed.
 */
import { collectiblesAbi, uuidToBytes16 } from "@collectibles/contracts";
import { createIndexerReader } from "@collectibles/indexer/reader";
import { expect } from "vitest";
import { type apiProcessesOnChainPerFile, jsonOf } from "../test/apiProcess.ts";
import { until } from "../test/faults.ts";
import { wholeFeed } from "../test/feed.ts";

type Processes = ReturnType<typeof apiProcessesOnChainPerFile>;
type Api = Awaited<ReturnType<Processes["start"]>>;

export function reorgKit({ call, createCollectible, stack }: Processes) {
  const rpc = (method: string, params: unknown[] = []) =>
    stack.client.request({ method, params } as never) as Promise<unknown>;

  const get = async (api: Api, path: string) =>
    (await jsonOf(await call(api.url, "GET", path))).data;

  function onChain(collectibleId: string, claimId: string): Promise<boolean> {
    return stack.client.readContract({
      address: stack.contract,
      abi: collectiblesAbi,
      functionName: "isClaimed",
      args: [uuidToBytes16(collectibleId), uuidToBytes16(claimId)],
    });
  }

  function claimedOnChain(collectibleId: string): Promise<bigint> {
    return stack.client.readContract({
      address: stack.contract,
      abi: collectiblesAbi,
      functionName: "claimedCount",
      args: [uuidToBytes16(collectibleId)],
    });
  }

  async function confirmedClaim(api: Api, collectibleId: string, email: string) {
    const res = await jsonOf(
      await call(api.url, "POST", "/claims", { collectible_id: collectibleId, email }),
    );
    return until(`claim ${email} confirmed`, async () => {
      const claim = await get(api, `/claims/${res.data.id}`);
      return claim.status === "confirmed" ? claim : undefined;
    });
  }

  async function newCollectible(api: Api, name: string, total: number) {
    const org = await jsonOf(await call(api.url, "POST", "/organizations", { name }));
    const created = await jsonOf(await createCollectible(api.url, org.data.id, name, total));
    return until(`${name} confirmed`, async () => {
      const row = await get(api, `/collectibles/${created.data.id}`);
      return row.status === "confirmed" ? row : undefined;
    });
  }

  /** Every event of these objects, in feed order, as `type id`. */
  async function eventsOf(api: Api, ids: string[]): Promise<string[]> {
    const feed = await wholeFeed(async (path) => jsonOf(await call(api.url, "GET", path)));
    return feed
      .filter((event) => ids.includes(event.data?.id))
      .map((event) => `${event.type} ${event.data.id}`);
  }

  /**
   * Polls until every claim is confirmed and on the chain, failing the moment the API answers
   * `confirmed` for a claim the chain lacks (read the API first, then the chain: the chain cannot
   * lose it in between).
   */
  async function healed(api: Api, collectibleId: string, claimIds: string[]) {
    await until(
      "every claim confirmed again and on the chain",
      async () => {
        let all = true;
        for (const id of claimIds) {
          const claim = await get(api, `/claims/${id}`);
          const minted = await onChain(collectibleId, id);
          if (claim.status === "confirmed" && !minted) {
            throw new Error(`claim ${id} answered confirmed while the chain lacks it`);
          }
          all &&= claim.status === "confirmed";
        }
        return all ? true : undefined;
      },
      { timeoutMs: 60_000 },
    );
  }

  /**
   * Until the API has seen the reorg: a confirmation of these claims is withdrawn (`claim.reorged`
   * in the feed). Not their status: a claim the chain mined again is confirmed again as soon as
   * the indexer has the new block, often before a poll of its status could see it pending.
   */
  function withdrawn(api: Api, claimIds: string[]) {
    return until(
      "a confirmation withdrawn (claim.reorged)",
      async () => {
        const events = await eventsOf(api, claimIds);
        return events.some((event) => event.startsWith("claim.reorged ")) ? true : undefined;
      },
      { timeoutMs: 30_000 },
    );
  }

  /**
   * Until the indexer has indexed the chain's head. A reorg that replaces blocks the indexer is
   * still fetching leaves Ponder retrying them by hash (anvil forgets replaced blocks) for about a
   * minute before it polls the head again: a test of the API's healing reorgs after this.
   */
  async function indexerAtHead() {
    const head = await stack.client.getBlockNumber();
    const indexer = createIndexerReader({ url: stack.indexerUrl });
    await until(`the indexer at block ${head}`, async () =>
      (await indexer.isIndexed(head)) ? true : undefined,
    );
  }

  async function agree(api: Api, collectibleId: string, claimIds: string[]) {
    expect(await claimedOnChain(collectibleId)).toBe(BigInt(claimIds.length));
    expect((await get(api, `/collectibles/${collectibleId}`)).claimed_count).toBe(claimIds.length);
    const indexer = createIndexerReader({ url: stack.indexerUrl });
    await until("the indexer agrees", async () =>
      (await indexer.getCollectible(collectibleId))?.claimedCount === BigInt(claimIds.length)
        ? true
        : undefined,
    );
    const editions = await Promise.all(
      claimIds.map(async (id) => (await get(api, `/claims/${id}`)).edition),
    );
    expect(editions.sort()).toEqual(claimIds.map((_, i) => i + 1));
  }

  /**
   * Until the API has taken back a confirmation of these claims, confirmed every one again on the
   * chain, and agrees with the chain and the indexer: how a reorg ends, whatever its depth.
   */
  async function recovered(api: Api, collectibleId: string, claimIds: string[]) {
    await withdrawn(api, claimIds);
    await healed(api, collectibleId, claimIds);
    await agree(api, collectibleId, claimIds);
  }

  return {
    rpc,
    get,
    onChain,
    claimedOnChain,
    confirmedClaim,
    newCollectible,
    eventsOf,
    healed,
    indexerAtHead,
    recovered,
  };
}
