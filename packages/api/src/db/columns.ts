/** Columns the API's tables (schema.ts, eventSchema.ts) spell the same way. */
import { type AnyPgColumn, timestamp, uuid } from "drizzle-orm/pg-core";

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
