/** Nonces for Sign-In with Ethereum proofs, and the wallet a user linked with one. */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Queryable } from "./driver/client.ts";
import { users } from "./schema.ts";
import type { UserRow } from "./users.ts";
import { walletLinkNonces } from "./walletSchema.ts";

export type WalletLinkNonceRow = typeof walletLinkNonces.$inferSelect;

export async function insertWalletLinkNonce(
  q: Queryable,
  nonce: { nonce: string; userId: string; address: string; expiresAt: Date },
): Promise<WalletLinkNonceRow> {
  const [row] = await q.insert(walletLinkNonces).values(nonce).returning();
  if (!row) throw new Error("no nonce row after its insert");
  return row;
}

/** The nonce issued to `userId`, used or not; undefined when none was. */
export async function findWalletLinkNonce(
  q: Queryable,
  userId: string,
  nonce: string,
): Promise<WalletLinkNonceRow | undefined> {
  const [row] = await q
    .select()
    .from(walletLinkNonces)
    .where(and(eq(walletLinkNonces.nonce, nonce), eq(walletLinkNonces.userId, userId)));
  return row;
}

/**
 * Marks the nonce used, unless it is used already or expired (by the database's clock); answers
 * whether this call used it. Two requests with one proof: only one of them links.
 */
export async function useWalletLinkNonce(
  q: Queryable,
  userId: string,
  nonce: string,
): Promise<boolean> {
  const used = await q
    .update(walletLinkNonces)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(walletLinkNonces.nonce, nonce),
        eq(walletLinkNonces.userId, userId),
        isNull(walletLinkNonces.usedAt),
        sql`${walletLinkNonces.expiresAt} > now()`,
      ),
    )
    .returning({ nonce: walletLinkNonces.nonce });
  return used.length > 0;
}

/** Records the address the user proved as their linked wallet; answers the user. */
export async function setLinkedWallet(
  q: Queryable,
  userId: string,
  address: string,
): Promise<UserRow> {
  const [row] = await q
    .update(users)
    .set({ linkedWallet: address, linkedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning();
  if (!row) throw new Error(`no user ${userId} to link`);
  return row;
}
