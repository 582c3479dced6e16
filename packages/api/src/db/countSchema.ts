/**
 * List counters (migrations 0009, 0018 and 0019): rows per collectible and status, and active users
 * per organization and in all, kept by triggers in the transaction that changes them.
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import type { ChainStatus } from "./schema.ts";

/**
 * How many claims each collectible has in each status, as the changes that writes of claims made:
 * each statement appends one row per collectible and status it changed (triggers on `claims`,
 * migrations 0009 and 0019), and housekeeping folds each pair's rows into one every few seconds
 * (`foldClaimCountChanges`). A list's `count` sums a few rows instead of counting up to 100,000
 * claims, and agrees with the rows the same statement reads. A writer only appends: a claim group
 * never waits for the relayer's confirmations to commit, as it did on one counter row per status.
 */
export const collectibleClaimCounts = pgTable(
  "claim_counts",
  {
    // A key, so that a logical replica can follow the folds' deletes.
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    collectibleId: uuid("collectible_id").notNull(),
    status: text("status").$type<ChainStatus>().notNull(),
    rows: integer("rows").notNull(),
    /** Written by a fold: the sum of its pair's rows until then. Appended changes are not. */
    folded: boolean("folded").notNull().default(false),
  },
  (t) => [
    index("claim_counts_collectible_id_status_index").on(t.collectibleId, t.status),
    // The pairs a fold must visit: those with changes appended since (a few), not every pair.
    index("claim_counts_unfolded_index").on(t.collectibleId, t.status).where(sql`not ${t.folded}`),
  ],
);

/** How many active users each organization has, kept by triggers on `users` (as above). */
export const organizationUserCounts = pgTable("user_counts", {
  organizationId: uuid("organization_id").primaryKey(),
  rows: integer("rows").notNull(),
});

/**
 * The active users of every organization together, as the changes that user writes made (one
 * row per statement, appended by triggers of its own: migration 0018), which housekeeping folds into
 * one row every few seconds (`foldUserCountChanges`). Counting every user sums these few rows
 * rather than 10,000 organizations' counters, and a writer only appends: it never waits for
 * another, as it would on a shared total.
 */
export const userCountChanges = pgTable("user_count_changes", {
  // A key, so that a logical replica can follow the folds' deletes.
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  rows: integer("rows").notNull(),
});
