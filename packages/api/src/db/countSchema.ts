/**
 * List counters (migration 0009): rows per collectible and status, and active users per
 * organization, kept by triggers in the transaction that changes them.
 */
import { integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
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
