/**
 * List counters (migrations 0009 and 0018): rows per collectible and status, and active users per
 * organization and in all, kept by triggers in the transaction that changes them.
 */
import { bigint, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import type { ChainStatus } from "./schema.ts";

/**
 * How many claims each collectible has in each status, kept by triggers on `claims` in the
 * transaction that changes them (migration 0009): a list's `count` is read from here instead of
 * counting up to 100,000 rows per request, and agrees with the rows the same statement reads.
 */
export const collectibleClaimCounts = pgTable(
  "claim_counts",
  {
    collectibleId: uuid("collectible_id").notNull(),
    status: text("status").$type<ChainStatus>().notNull(),
    rows: integer("rows").notNull(),
  },
  (t) => [primaryKey({ columns: [t.collectibleId, t.status] })],
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
