/**
 * The finality follower's queries (chain/finality.ts): mined rows not yet final, by the block
 * they were recorded in; taking back rows whose block a reorg replaced; marking rows final. And
 * the relayer's backlog, which /ready's sync check reports.
 */
import { and, eq, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { type ChangedRows, lockCollectiblesOfClaims } from "./chainIntents.ts";
import type { Queryable } from "./driver/client.ts";
import { claims, collectibles } from "./schema.ts";

/** A block as the relayer recorded it. `hash` is null on rows mined before hashes were kept. */
export interface RecordedBlock {
  number: bigint;
  hash: string | null;
}

type Table = typeof collectibles | typeof claims;

const unfinalized = (t: Table) =>
  and(isNotNull(t.minedBlock), isNull(t.finalizedAt), sql`${t.status} <> 'failed'`);

/** Each block that holds a mined row not yet final, with the hash recorded for it. */
export async function unfinalizedBlocks(q: Queryable): Promise<RecordedBlock[]> {
  const blocksOf = (t: Table) =>
    q
      .selectDistinct({ number: t.minedBlock, hash: t.minedBlockHash })
      .from(t)
      .where(unfinalized(t));
  const rows = [...(await blocksOf(collectibles)), ...(await blocksOf(claims))];
  const seen = new Map<string, RecordedBlock>();
  for (const row of rows) {
    if (row.number === null) continue;
    seen.set(`${row.number}:${row.hash}`, { number: row.number, hash: row.hash });
  }
  return [...seen.values()];
}

/** Rows recorded before hashes were kept take their block's canonical hash now. */
export async function adoptBlockHash(q: Queryable, block: bigint, hash: string): Promise<void> {
  for (const t of [collectibles, claims]) {
    await q
      .update(t)
      .set({ minedBlockHash: hash })
      .where(and(unfinalized(t), eq(t.minedBlock, block), isNull(t.minedBlockHash)));
  }
}

/** Mined rows not yet final recorded in one of these blocks with one of these hashes. */
export async function rowsInBlocks(q: Queryable, blocks: RecordedBlock[]) {
  const inBlocks = (t: Table) =>
    sql.join(
      blocks.map((b) => sql`(${t.minedBlock} = ${b.number} and ${t.minedBlockHash} = ${b.hash})`),
      sql` or `,
    );
  if (blocks.length === 0) return { collectibles: [], claims: [] };
  return {
    collectibles: await q
      .select({ id: collectibles.id })
      .from(collectibles)
      .where(and(unfinalized(collectibles), inBlocks(collectibles))),
    claims: await q
      .select({ id: claims.id, collectibleId: claims.collectibleId })
      .from(claims)
      .where(and(unfinalized(claims), inBlocks(claims))),
  };
}

/** Where a row whose block a reorg replaced stands now. */
export interface Retaken {
  id: string;
  /** The contract has it on the canonical chain (its transaction was mined again). */
  onChain: boolean;
}

/**
 * Takes back rows whose block left the canonical chain: each is pending again, without its
 * edition. One the chain still has (mined again elsewhere) is recorded at the head, so it is
 * confirmed again with the indexer's new facts; one the chain lacks is unsent, so the relayer
 * sends it again (the contract's claim ids make that safe). Answers the rows that were
 * confirmed (their confirmation is withdrawn); run in the transaction that records the events.
 */
export async function takeBackRows(
  tx: Queryable,
  retaken: { collectibles: Retaken[]; claims: Retaken[] },
  head: { number: bigint; hash: string },
): Promise<ChangedRows> {
  const back = (onChain: boolean) => ({
    status: "pending" as const,
    minedBlock: onChain ? head.number : null,
    minedBlockHash: onChain ? head.hash : null,
    transactionHash: onChain ? undefined : null,
    updatedAt: sql`now()`,
  });
  const withdrawn: ChangedRows = { collectibles: [], claims: [] };
  const collectibleIds = retaken.collectibles.map((r) => r.id);
  if (collectibleIds.length > 0) {
    const wasConfirmed = await confirmedBefore(tx, collectibles, collectibleIds);
    const taken: { id: string; organizationId: string }[] = [];
    for (const onChain of [true, false]) {
      const ids = retaken.collectibles.filter((r) => r.onChain === onChain).map((r) => r.id);
      if (ids.length === 0) continue;
      taken.push(
        ...(await tx
          .update(collectibles)
          .set(back(onChain))
          .where(inArray(collectibles.id, ids))
          .returning({ id: collectibles.id, organizationId: collectibles.organizationId })),
      );
    }
    withdrawn.collectibles = taken.filter((row) => wasConfirmed.has(row.id));
  }
  const claimIds = retaken.claims.map((r) => r.id);
  if (claimIds.length === 0) return withdrawn;
  await lockCollectiblesOfClaims(
    tx,
    sql`select ${claims.collectibleId} from ${claims} where ${inArray(claims.id, claimIds)}`,
  );
  const wasConfirmed = await confirmedBefore(tx, claims, claimIds);
  for (const onChain of [true, false]) {
    const ids = retaken.claims.filter((r) => r.onChain === onChain).map((r) => r.id);
    if (ids.length === 0) continue;
    await tx
      .update(claims)
      .set({ ...back(onChain), edition: null })
      .where(inArray(claims.id, ids));
  }
  withdrawn.claims = claimIds.filter((id) => wasConfirmed.has(id));
  return withdrawn;
}

/** Which of these rows are confirmed (read before they change). */
async function confirmedBefore(q: Queryable, t: Table, ids: string[]): Promise<Set<string>> {
  const rows = await q
    .select({ id: t.id })
    .from(t)
    .where(and(inArray(t.id, ids), eq(t.status, "confirmed")));
  return new Set(rows.map((row) => row.id));
}

/**
 * Confirmed rows mined at or below the chain's finalized block become final (`finalized_at`);
 * answers them. Run in the transaction that records the events.
 */
export async function finalizeRowsUpTo(tx: Queryable, finalized: bigint): Promise<ChangedRows> {
  const due = (t: Table) =>
    and(eq(t.status, "confirmed"), isNull(t.finalizedAt), lte(t.minedBlock, finalized));
  const final = await tx
    .update(collectibles)
    .set({ finalizedAt: sql`now()`, updatedAt: sql`now()` })
    .where(due(collectibles))
    .returning({ id: collectibles.id, organizationId: collectibles.organizationId });
  const finalClaims = await tx
    .update(claims)
    .set({ finalizedAt: sql`now()`, updatedAt: sql`now()` })
    .where(due(claims))
    .returning({ id: claims.id });
  return { collectibles: final, claims: finalClaims.map((claim) => claim.id) };
}

/** How many collectibles and claims are confirmed but not final. */
export async function confirmedNotFinal(q: Queryable) {
  const count = async (t: Table) => {
    const [row] = await q
      .select({ n: sql<number>`count(*)::int` })
      .from(t)
      .where(and(unfinalized(t), eq(t.status, "confirmed")));
    return row?.n ?? 0;
  };
  return { collectibles: await count(collectibles), claims: await count(claims) };
}

/** What the relayer has not finished: pending rows, and when the oldest was accepted. */
export async function pendingBacklog(
  q: Queryable,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await q
    .select({
      count: sql<number>`count(*)::int`,
      oldest: sql<string | null>`min(${claims.createdAt})`,
    })
    .from(claims)
    .where(eq(claims.status, "pending"));
  return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}
