/**
 * Linked wallets and moving tokens home (migration 0014): the nonces issued for a Sign-In with
 * Ethereum proof, and the moves of tokens from a user's service wallet to their linked wallet;
 * which user each address is (migration 0020).
 */
import { sql } from "drizzle-orm";
import { bigint, index, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { belongsTo, createdAt, generatedId, moment, updatedAt } from "./columns.ts";
import { claims, users } from "./schema.ts";

/**
 * A nonce issued to a user for proving an address: used once (`used_at`), until `expires_at`.
 * Only what checking a proof needs is kept; the message itself is rebuilt by the signer's side.
 */
export const walletLinkNonces = pgTable(
  "wallet_link_nonces",
  {
    nonce: text("nonce").primaryKey(),
    userId: belongsTo("user_id", () => users.id),
    address: text("address").notNull(),
    expiresAt: moment("expires_at").notNull(),
    usedAt: moment("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("wallet_link_nonces_user_id_idx").on(t.userId)],
);

/**
 * Where a move home stands. `pending`: stored; `sent`: its transaction is broadcast
 * (`transaction_hash`); `confirmed`: the token is at `to_address` on-chain; `failed`: the chain
 * refused it (`failure_reason`).
 */
export type MoveStatus = "pending" | "sent" | "confirmed" | "failed";

/** One token moving from the user's service wallet (`from_address`) to their linked wallet. */
export const transfersHome = pgTable(
  "transfers_home",
  {
    id: generatedId(),
    userId: belongsTo("user_id", () => users.id),
    claimId: belongsTo("claim_id", () => claims.id),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    status: text("status").$type<MoveStatus>().notNull().default("pending"),
    transactionHash: text("transaction_hash"),
    /** Where the transfer was mined: a reorg that replaces the block takes the move back. */
    minedBlock: bigint("mined_block", { mode: "bigint" }),
    minedBlockHash: text("mined_block_hash"),
    failureReason: text("failure_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("transfers_home_user_id_idx").on(t.userId, t.createdAt),
    // Confirmed moves whose block a reorg may still replace (chain/homeSender.ts).
    index("transfers_home_mined_idx")
      .on(t.minedBlock)
      .where(sql`${t.status} = 'confirmed' and ${t.minedBlock} is not null`),
    // The worker's queue.
    index("transfers_home_open_idx").on(t.createdAt).where(sql`${t.status} in ('pending', 'sent')`),
    // A token has at most one move under way: a second request finds it instead.
    uniqueIndex("transfers_home_claim_open_unique")
      .on(t.claimId)
      .where(sql`${t.status} in ('pending', 'sent')`),
  ],
);

/**
 * Which active user of an organization an address is: each user's wallet_address and linked
 * wallet, lowercase. Triggers on `users` (migration 0020) keep it in the statement that writes the
 * user, so its key refuses an address to a second active user of the organization, as either of
 * the two, whichever path writes it and however many write at once (409
 * `duplicate_wallet_address`). The holder of a token at an address is the user found here.
 */
export const userAddresses = pgTable(
  "user_addresses",
  {
    organizationId: uuid("organization_id").notNull(),
    address: text("address").notNull(),
    userId: uuid("user_id").notNull(),
  },
  (t) => [primaryKey({ name: "user_addresses_pkey", columns: [t.organizationId, t.address] })],
);
