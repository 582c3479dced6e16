/**
 * Before sending anything (at start, and whenever a transaction's outcome is unknown), every
 * unmined intent is checked against the chain (`collectible(id)` exists, `isClaimed`): what the
 * chain already has counts as mined. The contract refuses a claim id it has seen, so nothing is
 * minted twice even if a reconcile misses a transaction still in flight.
 */
import {
  markClaimsMined,
  markCollectibleMined,
  unsentClaims,
  unsentCollectibles,
} from "../db/chainIntents.ts";
import type { RelayerContext } from "./relayerContext.ts";

/** Marks every unmined intent the chain already has as mined (at the current block). */
export async function reconcile(ctx: RelayerContext): Promise<void> {
  const { chain, logger } = ctx;
  const block = await chain.head();
  let found = 0;
  for (const row of await unsentCollectibles(ctx.db, 100_000)) {
    if (await chain.collectibleExists(row.id)) {
      await markCollectibleMined(ctx.db, row.id, block, null);
      found++;
    }
  }
  const pending = await unsentClaims(ctx.db, 1_000_000, { onlyMinedCollectibles: false });
  for (let i = 0; i < pending.length; i += 500) {
    const chunk = pending.slice(i, i + 500);
    const claimed = await Promise.all(
      chunk.map((row) => chain.isClaimed(row.collectibleId, row.id)),
    );
    const ids = chunk.filter((_, j) => claimed[j]).map((row) => row.id);
    await markClaimsMined(ctx.db, ids, block, null);
    found += ids.length;
  }
  ctx.nonce = await chain.pendingNonce();
  logger.info(
    { alreadyOnChain: found, waiting: pending.length - found },
    "relayer reconciled pending intents with the chain",
  );
  if (found > 0) ctx.statusWaiter.statusesChanged();
}
