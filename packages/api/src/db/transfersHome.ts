/**
 * Moves of tokens from users' service wallets to their linked wallets: what a request stores,
 * what the worker (chain/homeSender.ts) takes, and what it records.
 */
import { and, asc, desc, eq, getTableColumns, gt, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "./driver/client.ts";
import { claims, users } from "./schema.ts";
import { type MoveStatus, transfersHome } from "./walletSchema.ts";

export type MoveRow = typeof transfersHome.$inferSelect;
/** A move with its token's collectible (the token id is made of both ids). */
export type MoveWithToken = MoveRow & { collectibleId: string };

const OPEN = sql`${transfersHome.status} in ('pending', 'sent')`;
const STANDING = sql`${transfersHome.status} in ('pending', 'sent', 'confirmed')`;
const withToken = { ...getTableColumns(transfersHome), collectibleId: claims.collectibleId };

/**
 * The user's confirmed claims whose token is recorded at `wallet` (minted there and not moved
 * since, as the transfer follower knows it), or only `claimId` among them. A claim asked for by
 * id whose token a confirmed move took to `movedTo` (the linked wallet) counts too, so a request
 * arriving after the move and the follower answers that move, as one arriving before them does.
 */
export function claimsHeldAt(
  q: Queryable,
  userId: string,
  wallet: string,
  claimId?: string,
  movedTo?: string,
): Promise<{ id: string; collectibleId: string }[]> {
  const holder = sql`lower(coalesce(${claims.heldBy}, ${claims.mintedTo}))`;
  const movedHome =
    claimId && movedTo
      ? sql`(${holder} = lower(${movedTo}) and exists (select 1 from ${transfersHome}
          where ${transfersHome.claimId} = ${claims.id} and ${transfersHome.status} = 'confirmed'
          and lower(${transfersHome.toAddress}) = lower(${movedTo})))`
      : undefined;
  const conditions: (SQL | undefined)[] = [
    eq(claims.holderId, userId),
    eq(claims.status, "confirmed"),
    movedHome
      ? or(sql`${holder} = lower(${wallet})`, movedHome)
      : sql`${holder} = lower(${wallet})`,
    claimId ? eq(claims.id, claimId) : undefined,
  ];
  return q
    .select({ id: claims.id, collectibleId: claims.collectibleId })
    .from(claims)
    .where(and(...conditions))
    .orderBy(asc(claims.createdAt), asc(claims.id));
}

/** Whether the user has a claim with this id (whatever its state). */
export async function userHasClaim(q: Queryable, userId: string, claimId: string) {
  const [row] = await q
    .select({ id: claims.id })
    .from(claims)
    .where(and(eq(claims.id, claimId), eq(claims.holderId, userId)));
  return row !== undefined;
}

/**
 * Stores a move per claim unless one stands already, and answers the standing move of each claim:
 * stored now or found. A move stands while under way, and once confirmed to the same address
 * (the token left the service wallet, but the transfer follower may not have recorded it yet):
 * a second request, from any process, answers it instead of storing another.
 */
export async function storeMoves(
  q: Queryable,
  moves: { userId: string; claimId: string; fromAddress: string; toAddress: string }[],
): Promise<MoveWithToken[]> {
  if (moves.length === 0) return [];
  const claimIds = moves.map((move) => move.claimId);
  const done = await q
    .select({ claimId: transfersHome.claimId, toAddress: transfersHome.toAddress })
    .from(transfersHome)
    .where(and(inArray(transfersHome.claimId, claimIds), eq(transfersHome.status, "confirmed")));
  const moved = new Set(done.map((move) => `${move.claimId}:${move.toAddress.toLowerCase()}`));
  const fresh = moves.filter(
    (move) => !moved.has(`${move.claimId}:${move.toAddress.toLowerCase()}`),
  );
  if (fresh.length > 0) {
    await q.insert(transfersHome).values(fresh).onConflictDoNothing({
      target: transfersHome.claimId,
      where: OPEN,
    });
  }
  const standing = await q
    .selectDistinctOn([transfersHome.claimId], withToken)
    .from(transfersHome)
    .innerJoin(claims, eq(claims.id, transfersHome.claimId))
    .where(and(inArray(transfersHome.claimId, claimIds), STANDING))
    .orderBy(transfersHome.claimId, desc(transfersHome.createdAt));
  return standing.sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  );
}

/** The user's moves, newest first (at most `limit`). */
export function listMoves(q: Queryable, userId: string, limit: number): Promise<MoveWithToken[]> {
  return q
    .select(withToken)
    .from(transfersHome)
    .innerJoin(claims, eq(claims.id, transfersHome.claimId))
    .where(eq(transfersHome.userId, userId))
    .orderBy(desc(transfersHome.createdAt), desc(transfersHome.id))
    .limit(limit);
}

/** Moves under way with the service wallet's index that signs them, oldest first. */
export function openMoves(
  q: Queryable,
  limit: number,
): Promise<(MoveWithToken & { walletIndex: number | null })[]> {
  return (
    q
      .select({ ...withToken, walletIndex: users.walletIndex })
      .from(transfersHome)
      .innerJoin(claims, eq(claims.id, transfersHome.claimId))
      .innerJoin(users, eq(users.id, transfersHome.userId))
      // A move a reorg reopened waits while its claim is minted again.
      .where(and(OPEN, eq(claims.status, "confirmed")))
      .orderBy(asc(transfersHome.createdAt), asc(transfersHome.id))
      .limit(limit)
  );
}

/** Records where moves stand; a move already final is left as it is. */
export async function markMoves(
  q: Queryable,
  ids: string[],
  change: {
    status: MoveStatus;
    transactionHash?: string;
    failureReason?: string;
    minedBlock?: bigint;
    minedBlockHash?: string;
  },
): Promise<void> {
  if (ids.length === 0) return;
  await q
    .update(transfersHome)
    .set({ ...change, updatedAt: sql`now()` })
    .where(and(inArray(transfersHome.id, ids), OPEN));
}

/** Confirmed moves mined above `finalized`, whose block a reorg may still replace. */
export function confirmedMovesAbove(q: Queryable, finalized: bigint) {
  return q
    .select({
      id: transfersHome.id,
      transactionHash: transfersHome.transactionHash,
      minedBlock: transfersHome.minedBlock,
      minedBlockHash: transfersHome.minedBlockHash,
    })
    .from(transfersHome)
    .where(and(eq(transfersHome.status, "confirmed"), gt(transfersHome.minedBlock, finalized)));
}

/** A confirmed move's transaction, mined again in another block after a reorg. */
export async function moveMinedAgain(q: Queryable, id: string, block: bigint, hash: string) {
  await q
    .update(transfersHome)
    .set({ minedBlock: block, minedBlockHash: hash, updatedAt: sql`now()` })
    .where(eq(transfersHome.id, id));
}

/**
 * Confirmed moves the chain no longer has (a reorg dropped their transaction): under way again,
 * keeping the transaction's hash (a node that puts the transaction back in its pool mines it
 * again, and the round that finds the token home reads its block from it). A move whose token
 * has another move under way by then is failed instead, so it is not told as done.
 */
export async function reopenMoves(q: Queryable, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const dropped = and(inArray(transfersHome.id, ids), eq(transfersHome.status, "confirmed"));
  await q
    .update(transfersHome)
    .set({ status: "pending", minedBlock: null, minedBlockHash: null, updatedAt: sql`now()` })
    .where(
      and(
        dropped,
        sql`not exists (select 1 from ${transfersHome} as other
          where other.claim_id = ${transfersHome.claimId} and other.status in ('pending', 'sent'))`,
      ),
    );
  await q
    .update(transfersHome)
    .set({
      status: "failed",
      failureReason: "a reorg dropped the transfer while another move of the token was under way",
      minedBlock: null,
      minedBlockHash: null,
      updatedAt: sql`now()`,
    })
    .where(dropped);
}
