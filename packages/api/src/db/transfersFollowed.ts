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

interface RecordedHolder {
  id: string;
  /** Lowercase. */
  holder: string;
  block: bigint | null;
  status: string;
}

/** Each claim's holder and its transfer's block as recorded, locked when asked. */
async function recordedHolders(
  tx: Queryable,
  ids: string[],
  lock: boolean,
): Promise<Map<string, RecordedHolder>> {
  if (ids.length === 0) return new Map();
  const read = tx
    .select({
      id: claims.id,
      holder: sql<string>`lower(coalesce(${claims.heldBy}, ${claims.mintedTo}))`,
      block: claims.heldByBlock,
      status: claims.status,
    })
    .from(claims)
    .where(inArray(claims.id, ids))
    // One order for every process, so two followers never wait on each other in a circle.
    .orderBy(claims.id);
  const rows = await (lock ? read.for("update") : read);
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The facts that would change what is recorded: a new holder, or the same holder by a transfer
 * in another block (mined again after a reorg). Not one from an indexer that has not yet reached
 * the block of the holder recorded (it is indexing again from an earlier block).
 */
function news(holders: readonly HolderFact[], recorded: Map<string, RecordedHolder>, asOf: bigint) {
  return holders.filter(({ claimId, holder, block }) => {
    const now = recorded.get(claimId);
    if (!now || (now.block !== null && now.block > asOf)) return false;
    return now.holder !== holder.toLowerCase() || now.block !== block;
  });
}

/**
 * Records each claim's holder as the indexer tells it with every block up to `asOf` indexed, and
 * the new position when given. A holder already recorded changes nothing (the rows that would
 * change are locked and compared again), so taking the same transfers in twice (two processes,
 * a retry, a block read again) tells of no change twice. Answers how many claims changed
 * holder, and the confirmed ones among them (their `claim.transferred` events); run in the
 * transaction that records the events.
 */
export async function recordHolderRows(
  tx: Queryable,
  holders: readonly HolderFact[],
  asOf: bigint,
  followedTo?: bigint,
): Promise<{ changed: number; transferred: string[] }> {
  // Blocks not yet final are read every round: most of what they tell is recorded already.
  const unlocked = news(holders, await recordedHolders(tx, ids(holders), false), asOf);
  const recorded = await recordedHolders(tx, ids(unlocked), true);
  const changed: { id: string; status: string }[] = [];
  for (const { claimId, holder, block } of news(unlocked, recorded, asOf)) {
    const now = recorded.get(claimId);
    if (!now) continue;
    const moved = now.holder !== holder.toLowerCase();
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

const ids = (holders: readonly HolderFact[]) => holders.map((h) => h.claimId);

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
