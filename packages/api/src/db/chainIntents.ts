/**
 * The relayer's queries over the intent tables (`collectibles`, `claims`): what is waiting to be
 * sent, and the transitions pending -> mined -> confirmed, or -> failed.
 */
import { and, asc, eq, inArray, isNotNull, isNull, lte, type SQL, sql } from "drizzle-orm";
import { type Queryable, rowsOf } from "./driver/client.ts";
import { claims, collectibles, users } from "./schema.ts";

export type CollectibleIntent = Pick<
  typeof collectibles.$inferSelect,
  | "id"
  | "organizationId"
  | "creatorId"
  | "totalCount"
  | "name"
  | "description"
  | "artwork"
  | "mimeType"
>;

export interface ClaimIntent {
  id: string;
  collectibleId: string;
  mintedTo: string;
  /** To the holder's service wallet: the API derived it and alone signs for it, so no code. */
  toServiceWallet: boolean;
  /** The most claims a batch holding it may have (null: any). */
  batchLimit: number | null;
}

/** Collectibles accepted and not yet mined, oldest first. */
export function unsentCollectibles(q: Queryable, limit: number): Promise<CollectibleIntent[]> {
  return q
    .select({
      id: collectibles.id,
      organizationId: collectibles.organizationId,
      creatorId: collectibles.creatorId,
      totalCount: collectibles.totalCount,
      name: collectibles.name,
      description: collectibles.description,
      artwork: collectibles.artwork,
      mimeType: collectibles.mimeType,
    })
    .from(collectibles)
    .where(and(eq(collectibles.status, "pending"), isNull(collectibles.minedBlock)))
    .orderBy(asc(collectibles.createdAt), asc(collectibles.id))
    .limit(limit);
}

/** Claims accepted, not yet mined, whose collectible is mined (created first), oldest first. */
export function unsentClaims(
  q: Queryable,
  limit: number,
  { onlyMinedCollectibles = true } = {},
): Promise<ClaimIntent[]> {
  return q
    .select({
      id: claims.id,
      collectibleId: claims.collectibleId,
      mintedTo: claims.mintedTo,
      toServiceWallet: sql<boolean>`${users.walletIndex} is not null and lower(${users.walletAddress}) = lower(${claims.mintedTo})`,
      batchLimit: claims.batchLimit,
    })
    .from(claims)
    .innerJoin(collectibles, eq(collectibles.id, claims.collectibleId))
    .innerJoin(users, eq(users.id, claims.holderId))
    .where(
      and(
        eq(claims.status, "pending"),
        isNull(claims.minedBlock),
        onlyMinedCollectibles ? isNotNull(collectibles.minedBlock) : undefined,
      ),
    )
    .orderBy(asc(claims.createdAt), asc(claims.id))
    .limit(limit);
}

/** A block of the chain: its number, and its hash (which a reorg that replaces it changes). */
export interface BlockRef {
  number: bigint;
  hash: string;
}

/**
 * Records the block a pending row was mined in. `hash` is null when the row was found minted
 * without a transaction of this send (reconcile, an earlier batch): the stored hash stays, and
 * `block` is a block at or after its mint (a reorg that takes the mint replaces that one too).
 */
function minedIn(table: typeof collectibles | typeof claims, block: BlockRef, hash: string | null) {
  return {
    minedBlock: block.number,
    minedBlockHash: block.hash,
    transactionHash: hash ?? sql`${table.transactionHash}`,
    updatedAt: sql`now()`,
  };
}

export async function markCollectibleMined(
  q: Queryable,
  id: string,
  block: BlockRef,
  hash: string | null,
): Promise<void> {
  await q
    .update(collectibles)
    .set(minedIn(collectibles, block, hash))
    .where(and(eq(collectibles.id, id), eq(collectibles.status, "pending")));
}

/** The changed rows an event tells of: collectibles with their organization, claims by id. */
export interface ChangedRows {
  collectibles: { id: string; organizationId: string }[];
  claims: string[];
}

/**
 * A collectible the chain refused: it fails, and so do the claims waiting for it, whose places
 * go back (claimed + pending + available stays the supply). Run in the transaction that records
 * the events (services/chainOutcomes.ts).
 */
export async function failCollectible(
  tx: Queryable,
  id: string,
  reason: string,
): Promise<ChangedRows> {
  const failed = await tx
    .update(collectibles)
    .set({ status: "failed", failureReason: reason, updatedAt: sql`now()` })
    .where(and(eq(collectibles.id, id), eq(collectibles.status, "pending")))
    .returning({ id: collectibles.id, organizationId: collectibles.organizationId });
  // No longer pending (another process settled it first): its claims are not this one's to fail.
  if (failed.length === 0) return { collectibles: [], claims: [] };
  const failedClaims = await tx
    .update(claims)
    .set({
      status: "failed",
      failureReason: "the collectible could not be created",
      updatedAt: sql`now()`,
    })
    .where(and(eq(claims.collectibleId, id), eq(claims.status, "pending")))
    .returning({ id: claims.id });
  if (failedClaims.length > 0) {
    await tx
      .update(collectibles)
      .set({ reservedCount: sql`${collectibles.reservedCount} - ${failedClaims.length}` })
      .where(eq(collectibles.id, id));
  }
  return { collectibles: failed, claims: failedClaims.map((claim) => claim.id) };
}

export async function markClaimsMined(
  q: Queryable,
  ids: string[],
  block: BlockRef,
  hash: string | null,
): Promise<void> {
  if (ids.length === 0) return;
  await q
    .update(claims)
    .set(minedIn(claims, block, hash))
    .where(and(sql`${claims.id} = any(${sql.param(ids)}::uuid[])`, eq(claims.status, "pending")));
}

/** Claims of a batch that reverted: from now on they go in batches of at most `limit`. */
export async function limitClaimBatches(q: Queryable, ids: string[], limit: number) {
  if (ids.length === 0) return;
  await q
    .update(claims)
    .set({ batchLimit: sql`least(coalesce(${claims.batchLimit}, ${limit}), ${limit})` })
    .where(inArray(claims.id, ids));
}

/**
 * A claim the chain refused: it fails and gives its place in the supply back. `hash` is the
 * transaction that skipped it, when one did (kept for audit; the claim has no token). Answers the
 * claim with its organization when it was pending; run in the transaction recording the event.
 */
export async function failClaim(
  tx: Queryable,
  id: string,
  reason: string,
  hash: string | null,
): Promise<{ id: string; organizationId: string } | null> {
  // The collectible's row first, as a claim's insert takes it: then the claim, whose status
  // change updates the list counters (taking them in the other order could deadlock).
  const [collectible] = await tx
    .select({ id: collectibles.id, organizationId: collectibles.organizationId })
    .from(collectibles)
    .where(
      sql`${collectibles.id} = (select ${claims.collectibleId} from ${claims} where ${claims.id} = ${id})`,
    )
    .for("update");
  const [failed] = await tx
    .update(claims)
    .set({
      status: "failed",
      failureReason: reason,
      transactionHash: hash ?? sql`${claims.transactionHash}`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(claims.id, id), eq(claims.status, "pending")))
    .returning({ id: claims.id });
  if (!failed || !collectible) return null;
  await tx
    .update(collectibles)
    .set({ reservedCount: sql`${collectibles.reservedCount} - 1` })
    .where(eq(collectibles.id, collectible.id));
  return { id, organizationId: collectible.organizationId };
}

/**
 * The lowest or highest block holding a collectible or claim mined and still pending (waiting for
 * the indexer); null when none. One statement: the relayer asks it every round.
 */
export async function minedPendingBlock(
  q: Queryable,
  end: "lowest" | "highest",
): Promise<bigint | null> {
  const bound = (t: typeof collectibles | typeof claims) =>
    sql`(select ${end === "lowest" ? sql`min` : sql`max`}(${t.minedBlock}) from ${t}
         where ${t.status} = 'pending' and ${t.minedBlock} is not null)`;
  // least() and greatest() skip nulls: a table with no such row leaves the other's block.
  const pick = end === "lowest" ? sql`least` : sql`greatest`;
  const [row] = rowsOf<{ block: string | null }>(
    await q.execute(sql`select ${pick}(${bound(collectibles)}, ${bound(claims)}) as block`),
  );
  return row?.block == null ? null : BigInt(row.block);
}

/** Claims mined at or below `block` and not yet confirmed. */
export async function minedPendingClaimIds(q: Queryable, block: bigint): Promise<string[]> {
  const rows = await q
    .select({ id: claims.id })
    .from(claims)
    .where(and(eq(claims.status, "pending"), lte(claims.minedBlock, block)));
  return rows.map((row) => row.id);
}

/**
 * Before the claims of `collectibleIds` (a subquery) change status, takes their collectibles'
 * rows (key share) ahead of the claims': a second update of a claim in one transaction checks its
 * collectible as a foreign key, and a claim failed meanwhile takes the collectible, then the
 * claim: the other order could deadlock. A claim group's lock (no key update) does not block it.
 */
export async function lockCollectiblesOfClaims(q: Queryable, collectibleIds: SQL): Promise<void> {
  await q.execute(
    sql`select 1 from ${collectibles} where ${collectibles.id} in (${collectibleIds}) order by ${collectibles.id} for key share`,
  );
}

/** What the indexer says of a minted claim, kept with it when it is confirmed. */
export interface MintFacts {
  edition: number;
  /** The transaction that minted it (not always the relayer's: a receiver's hook may mint). */
  transactionHash: string;
}

/**
 * Rows mined at or below `block` (which the indexer has) become confirmed, claims with the mint
 * facts of `mints` (all mined claims when there is no indexer); answers the rows. Run in the
 * transaction that records the events.
 */
export async function confirmRowsMinedUpTo(
  tx: Queryable,
  block: bigint,
  mints: ReadonlyMap<string, MintFacts> | undefined,
): Promise<ChangedRows> {
  const confirmed = await tx
    .update(collectibles)
    .set({ status: "confirmed", updatedAt: sql`now()` })
    .where(and(eq(collectibles.status, "pending"), lte(collectibles.minedBlock, block)))
    .returning({ id: collectibles.id, organizationId: collectibles.organizationId });
  const mined = and(
    eq(claims.status, "pending"),
    lte(claims.minedBlock, block),
    mints && sql`${claims.id} = any(${sql.param([...mints.keys()])}::uuid[])`,
  );
  await lockCollectiblesOfClaims(
    tx,
    sql`select ${claims.collectibleId} from ${claims} where ${mined}`,
  );
  const confirmedClaims = await tx
    .update(claims)
    .set({ status: "confirmed", updatedAt: sql`now()` })
    .where(mined)
    .returning({ id: claims.id });
  if (mints && mints.size > 0) {
    // One array per column: as a `values` list, drizzle took 2.7 ms on average to build it in a
    // 5,000-claim burst, the event loop held (as for the events of `recordEvents`).
    const facts = [...mints.values()];
    await tx.execute(sql`
        update claims set edition = known.edition, transaction_hash = known.hash
        from unnest(${sql.param([...mints.keys()])}::uuid[],
          ${sql.param(facts.map((mint) => mint.edition))}::int[],
          ${sql.param(facts.map((mint) => mint.transactionHash))}::text[]) as known(id, edition, hash)
        where claims.id = known.id`);
  }
  return { collectibles: confirmed, claims: confirmedClaims.map((claim) => claim.id) };
}
