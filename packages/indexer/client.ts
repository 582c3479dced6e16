/**
 * What another process needs to read the indexer's tables over Ponder's SQL-over-HTTP route: the
 * tables (`readTables.ts`, without Ponder itself) and `@ponder/client`, both resolved from this
 * package so they share one drizzle-orm (two copies make the tables' columns and the client's
 * operators incompatible types).
 */

export type { Client, Status } from "@ponder/client";
export { and, asc, count, createClient, desc, eq, gt, inArray, lte, or, sql } from "@ponder/client";
export * as schema from "./readTables.ts";
export { claim, collectible } from "./readTables.ts";
