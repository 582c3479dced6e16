/** Columns the API's tables (schema.ts, eventSchema.ts) spell the same way. */
import { sql } from "drizzle-orm";
import { type AnyPgColumn, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** A moment as every table stores one: with its time zone, to the millisecond. */
export const moment = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const createdAt = () => moment("created_at").notNull().defaultNow();
export const updatedAt = () => moment("updated_at").notNull().defaultNow();
export const deletedAt = () => moment("deleted_at");

/** A record's own id, which the database draws. */
export const generatedId = () => uuid("id").primaryKey().defaultRandom();

/** The id of the record this one belongs to, which every row has. */
export const belongsTo = (name: string, to: () => AnyPgColumn) =>
  uuid(name).notNull().references(to);

/**
 * Where a mined row stands against reorgs (chain/finality.ts): the hash of the block it was
 * recorded in (a reorg that replaces that block changes the canonical hash at its number), and
 * when that block became final, after which the row is no longer watched.
 */
export function finalityColumns() {
  return {
    minedBlockHash: text("mined_block_hash"),
    finalizedAt: moment("finalized_at"),
  };
}

/** Mined, not failed and not final: the rows a reorg can still take back. */
export const unfinalized = (t: {
  minedBlock: AnyPgColumn;
  finalizedAt: AnyPgColumn;
  status: AnyPgColumn;
}) => sql`${t.minedBlock} is not null and ${t.finalizedAt} is null and ${t.status} <> 'failed'`;
