/**
 * What the chain says about collectibles and claims, joined to the API's rows: claimed counts,
 * each token's holder after transfers, its edition and transaction. The indexer is the source;
 * when it is down or not configured, the API's own records answer (counts of confirmed claims,
 * holders as minted).
 */
import { getAddress } from "viem";
import type { ClaimWithOrganization } from "../db/claims.ts";
import { confirmedClaimCounts, usersByWallet } from "../db/claims.ts";
import type { CollectibleRow } from "../db/collectibles.ts";
import type { AppDeps } from "../deps.ts";
import type { ClaimView } from "../presenters/claim.ts";
import type { CollectibleView } from "../presenters/collectible.ts";

export async function withClaimedCounts(
  deps: AppDeps,
  rows: CollectibleRow[],
): Promise<CollectibleView[]> {
  const ids = rows.filter((row) => row.status === "confirmed").map((row) => row.id);
  const counts = new Map<string, number>();
  const indexer = deps.chain?.indexer;
  if (ids.length > 0 && indexer) {
    try {
      const indexed = await indexer.collectiblesByIds(ids);
      for (const [id, row] of indexed) counts.set(id, Number(row.claimedCount));
    } catch (error) {
      deps.logger.warn({ err: (error as Error).message }, "indexer unavailable; counting locally");
    }
  }
  const missing = ids.filter((id) => !counts.has(id));
  if (missing.length > 0) {
    const local = await confirmedClaimCounts(deps.db, "collectible", missing);
    for (const id of missing) counts.set(id, local.get(id) ?? 0);
  }
  return rows.map((row) => ({ row, claimedCount: counts.get(row.id) ?? 0 }));
}

export async function withChainFacts(
  deps: AppDeps,
  rows: ClaimWithOrganization[],
): Promise<ClaimView[]> {
  const asMinted = (row: ClaimWithOrganization): ClaimView => ({
    row: row.claim,
    holderAddress: row.claim.mintedTo,
    holderId: row.claim.holderId,
    edition: null,
    transactionHash: row.claim.transactionHash,
  });
  const minted = rows.filter((r) => r.claim.status === "confirmed").map((r) => r.claim.id);
  const indexer = deps.chain?.indexer;
  if (minted.length === 0 || !indexer) return rows.map(asMinted);
  let indexed: Awaited<ReturnType<typeof indexer.claimsByIds>>;
  try {
    indexed = await indexer.claimsByIds(minted);
  } catch (error) {
    deps.logger.warn({ err: (error as Error).message }, "indexer unavailable; holders as minted");
    return rows.map(asMinted);
  }
  const movedTo = (row: ClaimWithOrganization) => {
    const holder = indexed.get(row.claim.id)?.holder;
    return holder && holder.toLowerCase() !== row.claim.mintedTo.toLowerCase() ? holder : undefined;
  };
  const moved = rows.filter((row) => movedTo(row) !== undefined);
  // `orgId:lowercase address` -> the organization's user holding a token after a transfer.
  const usersByAddress = new Map<string, string>();
  if (moved.length > 0) {
    const holders = await usersByWallet(
      deps.db,
      [...new Set(moved.map((row) => row.organizationId))],
      moved.map((row) => movedTo(row) ?? ""),
    );
    for (const user of holders) {
      usersByAddress.set(`${user.organizationId}:${user.walletAddress.toLowerCase()}`, user.id);
    }
  }
  return rows.map((row) => {
    const chain = indexed.get(row.claim.id);
    if (!chain) return asMinted(row);
    const newHolder = movedTo(row);
    return {
      row: row.claim,
      holderAddress: getAddress(chain.holder),
      holderId: newHolder
        ? (usersByAddress.get(`${row.organizationId}:${newHolder.toLowerCase()}`) ?? null)
        : row.claim.holderId,
      edition: Number(chain.edition),
      transactionHash: chain.transactionHash,
    };
  });
}
