/**
 * Who holds each claimed token after on-chain transfers, as the API keeps it (`claims.held_by`)
 * for filters, and the position of the indexer's transfers already taken in (`settings`).
 */
import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { Queryable } from "./driver/client.ts";
import { claims, settings } from "./schema.ts";

const POSITION_KEY = "transfers_followed_to_block";

/** The last block whose transfers are taken in; 0 before any. */
export async function transfersFollowedTo(q: Queryable): Promise<bigint> {
  const [row] = await q
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, POSITION_KEY));
  return row ? BigInt(row.value) : 0n;
}

/** A claim's holder as the indexer tells it, and the block of the transfer (null: never moved). */
export interface HolderFact {
  claimId: string;
  holder: string;
  block: bigint | null;
}

/**
 * Records each claim's holder as the indexer tells it with every block up to `asOf` indexed, and
 * the new position when given. A holder already recorded changes nothing (the rows are locked
 * while compared), so taking the same transfers in twice (two processes, a retry, a block read
 * again) tells of no change twice; nor does an indexer that has not yet reached the block of the
 * holder recorded (it is indexing again from an earlier block). Answers how many claims changed
 * holder, and the confirmed ones among them (their `claim.transferred` events); run in the
 * transaction that records the events.
 */
export async function recordHolderRows(
  tx: Queryable,
  holders: readonly HolderFact[],
  asOf: bigint,
  followedTo?: bigint,
): Promise<{ changed: number; transferred: string[] }> {
  const recorded = new Map(
    holders.length === 0
      ? []
      : (
          await tx
            .select({
              id: claims.id,
              holder: sql<string>`lower(coalesce(${claims.heldBy}, ${claims.mintedTo}))`,
              block: claims.heldByBlock,
              status: claims.status,
            })
            .from(claims)
            .where(
              inArray(
                claims.id,
                holders.map((h) => h.claimId),
              ),
            )
            // One order for every process, so two followers never wait on each other in a circle.
            .orderBy(claims.id)
            .for("update")
        ).map((row) => [row.id, row]),
  );
  const changed: { id: string; status: string }[] = [];
  for (const { claimId, holder, block } of holders) {
    const now = recorded.get(claimId);
    if (!now || (now.block !== null && now.block > asOf)) continue;
    const moved = now.holder !== holder.toLowerCase();
    // The same holder by a transfer in another block (mined again after a reorg): no news.
    if (!moved && now.block === block) continue;
    await tx
      .update(claims)
      .set(
        moved
          ? { heldBy: holder, heldByBlock: block, updatedAt: sql`now()` }
          : { heldByBlock: block },
      )
      .where(eq(claims.id, claimId));
    if (moved) changed.push(now);
  }
  // A claim not yet confirmed reports its holder in its claim.confirmed event.
  const transferred = changed.filter((claim) => claim.status === "confirmed").map((c) => c.id);
  if (followedTo === undefined) return { changed: changed.length, transferred };
  // Set, not raised: on a chain replaced by a shorter one the position comes down with it.
  await tx
    .insert(settings)
    .values({ key: POSITION_KEY, value: String(followedTo) })
    .onConflictDoUpdate({ target: settings.key, set: { value: String(followedTo) } });
  return { changed: changed.length, transferred };
}

/** The chain no longer has these tokens (their mint was taken back): held by none, as unmoved. */
export async function forgetHolders(q: Queryable, claimIds: readonly string[]): Promise<void> {
  if (claimIds.length === 0) return;
  await q
    .update(claims)
    .set({ heldBy: null, heldByBlock: null, updatedAt: sql`now()` })
    .where(inArray(claims.id, [...claimIds]));
}

/**
 * Claims whose holder came by a transfer in blocks `(finalized, indexed]`: a reorg may still take
 * it back, and the indexer has reached its block.
 */
export async function heldInUnfinalBlocks(
  q: Queryable,
  finalized: bigint,
  indexed: bigint,
): Promise<string[]> {
  const rows = await q
    .select({ id: claims.id })
    .from(claims)
    .where(and(gt(claims.heldByBlock, finalized), lte(claims.heldByBlock, indexed)));
  return rows.map((row) => row.id);
}
