/**
 * What the chain says about collectibles and claims, joined to the API's rows: claimed counts,
 * each token's holder after transfers, its edition and transaction. The indexer is the source;
 * when it is down or not configured, the API's own records answer (counts of confirmed claims,
 * holders as minted).
 */
import { getAddress } from "viem";
import type { ClaimWithOrganization } from "../db/claims.ts";
import { claimCounts, usersByWallet } from "../db/claims.ts";
import type { CollectibleRow } from "../db/collectibles.ts";
import type { AppDeps } from "../deps.ts";
import type { ClaimView } from "../presenters/claim.ts";
import type { CollectibleView } from "../presenters/collectible.ts";

/**
 * Each collectible's claimed count (what the chain has: the indexer's count, or the API's
 * confirmed claims when it is down) and pending count (accepted, not yet confirmed).
 */
export async function withClaimCounts(
  deps: AppDeps,
  rows: CollectibleRow[],
): Promise<CollectibleView[]> {
  const ids = rows.filter((row) => row.status === "confirmed").map((row) => row.id);
  const claimed = new Map<string, number>();
  const indexer = deps.chain?.indexer;
  if (ids.length > 0 && indexer) {
    try {
      const indexed = await indexer.collectiblesByIds(ids);
      for (const [id, row] of indexed) claimed.set(id, Number(row.claimedCount));
    } catch (error) {
      deps.logger.warn({ err: (error as Error).message }, "indexer unavailable; counting locally");
    }
  }
  const missing = ids.filter((id) => !claimed.has(id));
  if (missing.length > 0) {
    const local = await claimCounts(deps.db, "collectible", missing, "confirmed");
    for (const id of missing) claimed.set(id, local.get(id) ?? 0);
  }
  // Only a collectible with reserved places can have pending claims.
  const reserved = rows.filter((row) => row.reservedCount > 0).map((row) => row.id);
  const pending = await claimCounts(deps.db, "collectible", reserved, "pending");
  return rows.map((row) => ({
    row,
    claimedCount: claimed.get(row.id) ?? 0,
    pendingCount: pending.get(row.id) ?? 0,
  }));
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
