/**
 * Follows tokens moving on-chain: polls the indexer for tokens transferred since the last block
 * taken in, and records each claim's holder now (for `holder_wallet_address` filters) with a
 * `claim.transferred` event. Every API process with an indexer runs one, and a round takes a
 * database lock first: two processes' rounds never interleave, so one that read the indexer
 * before a reorg cannot record a holder after another has recorded the reorg's outcome (the move
 * told again, and taken back again). Recording a holder already recorded does nothing, so two
 * followers never report one transfer twice.
 *
 * A reorg can take a transfer back or mine one in a block already passed, so blocks above the
 * chain's finalized block are read again each round, and a holder that came by a transfer above
 * it is read again by claim until that block is final. A chain replaced by a shorter one brings
 * the position down with it.
 */

import { type IndexerReader, MAX_IDS_PER_CALL } from "@collectibles/indexer/reader";
import { getAddress } from "viem";
import type { DatabaseHandle } from "../db/driver/client.ts";
import { databaseErrorText } from "../db/driver/pgError.ts";
import {
  type HolderFact,
  heldInUnfinalBlocks,
  transfersFollowedTo,
} from "../db/transfersFollowed.ts";
import { pollLoop } from "../lib/pollLoop.ts";
import type { Logger } from "../logger.ts";
import { recordHolders } from "../services/chainOutcomes.ts";
import type { ChainClient } from "./chainClient.ts";

const POLL_MS = 1_000;
/**
 * How long the chain's finalized block is taken as it was last read: an older one only means a
 * few more blocks read again, and a node with a request quota is spared a call a second.
 */
const FINALIZED_READ_MS = 30_000;
/** Tokens read from the indexer per call. */
const PAGE = 500;

const factOf = (token: {
  id: string;
  holder: string;
  transferBlockNumber: bigint | null;
}): HolderFact => ({
  claimId: token.id,
  holder: getAddress(token.holder),
  block: token.transferBlockNumber,
});

/** The lock a round holds: one process's round at a time. */
const ROUND_LOCK = "collectibles_api_transfer_follower";

export function startTransferFollower(options: {
  database: Pick<DatabaseHandle, "db" | "tryLock">;
  indexer: IndexerReader;
  chain: Pick<ChainClient, "finalizedBlock">;
  /** Blocks below the head taken as final on a chain without a `finalized` tag. */
  finalityDepth: number;
  logger: Logger;
}): { stop(): Promise<void> } {
  const { database, indexer, chain, logger } = options;
  const { db } = database;
  let finalizedRead = { block: 0n, at: Number.NEGATIVE_INFINITY };

  async function finalizedBlock(): Promise<bigint> {
    if (Date.now() - finalizedRead.at > FINALIZED_READ_MS) {
      finalizedRead = { block: await chain.finalizedBlock(options.finalityDepth), at: Date.now() };
    }
    return finalizedRead.block;
  }

  /** Takes in the transfers of blocks the indexer has finished since the last round. */
  async function round(): Promise<void> {
    const indexed = await indexer.indexedBlock();
    if (indexed === null) return;
    const finalized = await finalizedBlock();
    const position = await transfersFollowedTo(db);
    // Blocks not yet final are read again: a reorg may have mined a transfer there.
    let after = position;
    if (finalized < after) after = finalized;
    const seen = new Set<string>();
    let from: { block: bigint; tokenId: bigint } | undefined;
    while (indexed > after) {
      const moved = await indexer.claimsMovedBetween(after, indexed, PAGE, from);
      for (const token of moved) seen.add(token.id);
      const last = moved.at(-1);
      const done = moved.length < PAGE || !last;
      // The position moves only once every token of those blocks is in.
      await recordHolders(db, moved.map(factOf), indexed, done ? indexed : after);
      if (done) break;
      from = { block: last.transferBlockNumber ?? 0n, tokenId: last.tokenId };
    }
    const watched = await heldInUnfinalBlocks(db, finalized, indexed);
    await readHoldersAgain(
      watched.filter((id) => !seen.has(id)),
      indexed,
    );
  }

  /** Holders whose transfer a reorg may have taken back, as the indexer tells them now. */
  async function readHoldersAgain(claimIds: string[], indexed: bigint): Promise<void> {
    for (let i = 0; i < claimIds.length; i += MAX_IDS_PER_CALL) {
      const ids = claimIds.slice(i, i + MAX_IDS_PER_CALL);
      const tokens = await indexer.claimsByIds(ids);
      await recordHolders(db, [...tokens.values()].map(factOf), indexed);
    }
  }

  /** A round, unless another process's is under way: that one takes the same blocks in. */
  async function roundInTurn(): Promise<void> {
    const lock = await database.tryLock(ROUND_LOCK);
    if (!lock) return;
    try {
      await round();
    } finally {
      await lock.release();
    }
  }

  return pollLoop(
    async () => {
      await roundInTurn();
      return false; // at most one round a second: transfers are rare next to claims
    },
    POLL_MS,
    // The indexer is down or restarting: its blocks are taken in when it is back.
    (error) => logger.debug({ err: databaseErrorText(error) }, "transfer follower waits"),
  );
}
