/**
 * Follows tokens moving on-chain: polls the indexer for tokens transferred since the last block
 * taken in, and records each claim's holder now (for `holder_wallet_address` filters) with a
 * `claim.transferred` event. Every API process with an indexer runs one; recording a holder
 * already recorded does nothing, so two followers never report one transfer twice.
 */

import type { IndexerReader } from "@collectibles/indexer/reader";
import { getAddress } from "viem";
import type { Queryable } from "../db/driver/client.ts";
import { transfersFollowedTo } from "../db/transfersFollowed.ts";
import { pollLoop } from "../lib/pollLoop.ts";
import type { Logger } from "../logger.ts";
import { recordHolders } from "../services/chainOutcomes.ts";

const POLL_MS = 1_000;
/** Tokens read from the indexer per call. */
const PAGE = 500;

export function startTransferFollower(options: {
  db: Queryable;
  indexer: IndexerReader;
  logger: Logger;
}): { stop(): Promise<void> } {
  const { db, indexer, logger } = options;

  /** Takes in the transfers of blocks the indexer has finished since the last round. */
  async function round(): Promise<void> {
    const indexed = await indexer.indexedBlock();
    const after = await transfersFollowedTo(db);
    if (indexed === null || indexed <= after) return;
    let from: { block: bigint; tokenId: bigint } | undefined;
    for (;;) {
      const moved = await indexer.claimsMovedBetween(after, indexed, PAGE, from);
      const last = moved.at(-1);
      const done = moved.length < PAGE || !last;
      await recordHolders(
        db,
        moved.map((token) => ({ claimId: token.id, holder: getAddress(token.holder) })),
        // The position moves only once every token of those blocks is in.
        done ? indexed : after,
      );
      if (done) return;
      from = { block: last.transferBlockNumber ?? 0n, tokenId: last.tokenId };
    }
  }

  return pollLoop(
    async () => {
      await round();
      return false; // at most one round a second: transfers are rare next to claims
    },
    POLL_MS,
    // The indexer is down or restarting: its blocks are taken in when it is back.
    (error) => logger.debug({ err: error.message }, "transfer follower waits"),
  );
}
