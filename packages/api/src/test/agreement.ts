/**
 * "The API, the indexer and the chain agree": after a fault test's burst has drained, every claim
 * of the collectible is confirmed in the API, the indexer has exactly the same claims with the
 * same editions, and the contract holds exactly one token per claim and nothing more.
 */
import { collectiblesAbi, tokenIdOf, uuidToBytes16 } from "@collectibles/contracts";
import { createIndexerReader } from "@collectibles/indexer/reader";
import { type Address, erc1155Abi } from "viem";
import { expect } from "vitest";
import type { ChainStack } from "./chainStack.ts";
import { until } from "./faults.ts";

export interface ApiClaim {
  id: string;
  status: string;
  is_active: boolean;
  minted_to: Address;
  holder_id: string | null;
  claimed_by_id: string;
  edition: number | null;
  transaction_hash: string | null;
}

/** Reads a path of the API and returns its JSON body, throwing on any other answer than 200. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
export type ApiGet = (path: string) => Promise<any>;

/** Every claim of a collectible, through every page of `GET /claims`. */
/** The contract's `claimedCount` of a collectible. */
export function claimedOnChain(stack: ChainStack, collectibleId: string): Promise<bigint> {
  return stack.client.readContract({
    address: stack.contract,
    abi: collectiblesAbi,
    functionName: "claimedCount",
    args: [uuidToBytes16(collectibleId)],
  });
}

export async function allClaimsOf(get: ApiGet, collectibleId: string): Promise<ApiClaim[]> {
  const rows: ApiClaim[] = [];
  for (let page = 1; ; page++) {
    const body = await get(`/claims?collectible_id=${collectibleId}&limit=100&page=${page}`);
    rows.push(...body.data);
    if (page >= body.pagination.pages) return rows;
  }
}

/**
 * Waits until every claim of the collectible is confirmed (and shows its edition), then checks
 * that there are exactly `count` of them and that the API's collectible, the indexer and the
 * contract all say the same. Returns the API's claims.
 */
export async function expectAgreement(
  stack: ChainStack,
  get: ApiGet,
  collectibleId: string,
  count: number,
  { timeoutMs = 240_000, context = "" } = {},
): Promise<ApiClaim[]> {
  const claims = await until(
    `every claim of ${collectibleId} confirmed with its edition ${context}`,
    async () => {
      const rows = await allClaimsOf(get, collectibleId);
      return rows.every((row) => row.status === "confirmed" && row.edition !== null)
        ? rows
        : undefined;
    },
    { timeoutMs },
  );
  const ids = claims.map((claim) => claim.id).sort();
  expect(claims, `the API's claims ${context}`).toHaveLength(count);
  expect(new Set(ids).size, `distinct claim ids ${context}`).toBe(count);
  for (const claim of claims) {
    expect(claim, context).toMatchObject({ is_active: true });
    expect(claim.transaction_hash, context).toMatch(/^0x[0-9a-f]{64}$/);
  }
  const editions = claims.map((claim) => claim.edition).sort((a, b) => Number(a) - Number(b));
  expect(editions, `editions 1..${count} each once ${context}`).toEqual(
    Array.from({ length: count }, (_, i) => i + 1),
  );

  const collectible = (await get(`/collectibles/${collectibleId}`)).data;
  expect(collectible.claimed_count, `the API's claimed_count ${context}`).toBe(count);
  expect(collectible.pending_count, `the API's pending_count ${context}`).toBe(0);
  expect(collectible.available_count).toBe(collectible.total_count - count);

  const indexer = createIndexerReader({ url: stack.indexerUrl });
  // A restarted Ponder indexes again from its last checkpoint: its tables are compared once it
  // has every block the claims are in.
  const head = await stack.client.getBlockNumber();
  await until("the indexer at the chain's head", async () =>
    (await indexer.isIndexed(head)) ? true : undefined,
  );
  const indexed = await until(
    "the indexer answering",
    async () => (await indexer.getCollectible(collectibleId)) ?? undefined,
  );
  expect(indexed.claimedCount, `the indexer's claimedCount ${context}`).toBe(BigInt(count));
  const indexedClaims = await indexer.claimsOfCollectible(collectibleId);
  expect(indexedClaims.map((claim) => claim.id).sort(), `the indexer's claims ${context}`).toEqual(
    ids,
  );
  const editionOf = new Map(indexedClaims.map((claim) => [claim.id, Number(claim.edition)]));
  for (const claim of claims) expect(claim.edition, context).toBe(editionOf.get(claim.id));

  const onChain = await claimedOnChain(stack, collectibleId);
  expect(onChain, `the contract's claimedCount ${context}`).toBe(BigInt(count));
  const balances = await stack.client.readContract({
    address: stack.contract,
    abi: erc1155Abi,
    functionName: "balanceOfBatch",
    args: [
      claims.map((claim) => claim.minted_to),
      claims.map((c) => tokenIdOf(collectibleId, c.id)),
    ],
  });
  expect(
    balances.every((balance) => balance === 1n),
    `one token per claim on-chain ${context}`,
  ).toBe(true);
  return claims;
}
