/**
 * The tables the indexer fills from the Collectibles contract's events, and the API reads.
 *
 * Column types, chosen once for every table:
 * - off-chain ids (the `bytes16` the contract carries) are PostgreSQL `uuid`, read as the same
 *   lowercase UUID strings the API stores;
 * - `uint64`/`uint256` values (supplies, counts, editions, token ids) and block numbers are
 *   Ponder's `bigint` (`numeric(78)`, a JS `bigint`): exact for every value the chain allows;
 * - block timestamps are `bigint` seconds since the epoch, as the chain reports them;
 * - addresses and hashes are Ponder's `hex` (lowercase `0x…` text); chain ids are `integer`.
 */
import { index, onchainTable, relations } from "ponder";

/** One collectible, from its `CollectibleCreated` event; counts follow its claims. */
export const collectible = onchainTable(
  "collectible",
  (t) => ({
    /** Off-chain id of the collectible (the event's `id`). */
    id: t.uuid().primaryKey(),
    chainId: t.integer().notNull(),
    contractAddress: t.hex().notNull(),
    /** Off-chain id of the owning organization, as carried on-chain. */
    organizationId: t.uuid().notNull(),
    /** Off-chain id of the creating user; null when the chain carries zero (no creator). */
    creatorId: t.uuid(),
    /** Fixed total supply (`uint64`). */
    totalSupply: t.bigint().notNull(),
    /** Tokens minted so far. */
    claimedCount: t.bigint().notNull(),
    /** `totalSupply - claimedCount`. */
    availableCount: t.bigint().notNull(),
    /** Immutable metadata, exactly as emitted. */
    name: t.text().notNull(),
    description: t.text().notNull(),
    image: t.text().notNull(),
    mimeType: t.text().notNull(),
    /** Where the creation happened. */
    blockNumber: t.bigint().notNull(),
    transactionHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
    timestamp: t.bigint().notNull(),
  }),
  (table) => ({
    organizationIdx: index().on(table.organizationId),
  }),
);

/**
 * One claimed token, from its mint (`TransferSingle` from the zero address); `holder` follows the
 * token's ERC-1155 transfers. The token id is the primary key: the contract guarantees it is
 * minted once, while a claim id is only unique within its collectible.
 */
export const claim = onchainTable(
  "claim",
  (t) => ({
    /** `collectibleId << 128 | claimId` (`uint256`). */
    tokenId: t.bigint().primaryKey(),
    /** Off-chain id of the claim (low 128 bits of the token id). */
    id: t.uuid().notNull(),
    /** Off-chain id of the collectible (high 128 bits of the token id). */
    collectibleId: t.uuid().notNull(),
    chainId: t.integer().notNull(),
    contractAddress: t.hex().notNull(),
    /**
     * Edition number, as the contract's `editionOf` and `uri()` give it: 1 + the number of the
     * collectible's mint events before this one in log order.
     */
    edition: t.bigint().notNull(),
    /** Address the token was minted to. */
    mintedTo: t.hex().notNull(),
    /** Address holding the token now. */
    holder: t.hex().notNull(),
    /** Where the mint happened. */
    blockNumber: t.bigint().notNull(),
    transactionHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
    timestamp: t.bigint().notNull(),
    /** Where the token last moved; null while it has never left `mintedTo`. */
    transferBlockNumber: t.bigint(),
    transferTransactionHash: t.hex(),
    transferTimestamp: t.bigint(),
  }),
  (table) => ({
    idIdx: index().on(table.id),
    collectibleIdx: index().on(table.collectibleId),
    holderIdx: index().on(table.holder),
  }),
);

export const collectibleRelations = relations(collectible, ({ many }) => ({
  claims: many(claim),
}));

export const claimRelations = relations(claim, ({ one }) => ({
  collectible: one(collectible, { fields: [claim.collectibleId], references: [collectible.id] }),
}));
