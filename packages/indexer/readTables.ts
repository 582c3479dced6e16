/**
 * The indexer's tables as another process reads them over Ponder's SQL-over-HTTP route: the same
 * tables and columns as `ponder.schema.ts`, declared with drizzle alone. Ponder's `onchainTable`
 * comes only with the whole of Ponder (its sync engine, GraphQL server, a viem of its own): imported
 * by the API it held 9 MiB of its heap and 28 MiB of its RSS, for two table declarations.
 * `test/readTables.test.ts` checks that every table, column, SQL type and key here is the
 * schema's, and that values are read and written as the schema's columns do. Readers ask with `select`, so the schema's relations are not repeated here.
 */
import { customType, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import type { Hex } from "viem";

/** Ponder's `t.hex()`: lowercase `0x…` text, of whole bytes (an odd digit count gets a `0`). */
const hex = customType<{ data: Hex; driverData: string }>({
  dataType: () => "text",
  toDriver: (value) => (value.length % 2 === 0 ? value : `0x0${value.slice(2)}`).toLowerCase(),
});

/** Ponder's `t.bigint()`: `numeric(78)`, read as a JS `bigint`. */
const evmBigint = customType<{ data: bigint; driverData: string }>({
  dataType: () => "numeric(78)",
  fromDriver: (value) => BigInt(value),
});

export const collectible = pgTable("collectible", {
  id: uuid().primaryKey(),
  chainId: integer().notNull(),
  contractAddress: hex().notNull(),
  organizationId: uuid().notNull(),
  creatorId: uuid(),
  totalSupply: evmBigint().notNull(),
  claimedCount: evmBigint().notNull(),
  availableCount: evmBigint().notNull(),
  name: text().notNull(),
  description: text().notNull(),
  image: text().notNull(),
  mimeType: text().notNull(),
  blockNumber: evmBigint().notNull(),
  transactionHash: hex().notNull(),
  logIndex: integer().notNull(),
  timestamp: evmBigint().notNull(),
});

export const claim = pgTable("claim", {
  tokenId: evmBigint().primaryKey(),
  id: uuid().notNull(),
  collectibleId: uuid().notNull(),
  chainId: integer().notNull(),
  contractAddress: hex().notNull(),
  edition: evmBigint().notNull(),
  mintedTo: hex().notNull(),
  holder: hex().notNull(),
  blockNumber: evmBigint().notNull(),
  transactionHash: hex().notNull(),
  logIndex: integer().notNull(),
  timestamp: evmBigint().notNull(),
  transferBlockNumber: evmBigint(),
  transferTransactionHash: hex(),
  transferTimestamp: evmBigint(),
});
