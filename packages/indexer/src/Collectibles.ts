/**
 * Collectibles contract events into the `collectible` and `claim` tables.
 *
 * The contract enforces every rule (supply, exactly-once claims, who may move a token); these
 * handlers only record what happened. Each write is keyed by what the chain guarantees unique
 * (collectible id, token id); Ponder hands each event over once (a reorg rolls its writes back
 * first), so a mint is written without looking for an earlier copy of its row.
 *
 * Editions come from the chain by its own definition: the contract numbers a token as it mints
 * it, so `editionOf(token)` is one more than the number of earlier mint events of its collectible
 * in log order (a mint a refusing receiver undid left no event and took no number), whatever
 * receiver hooks do in between. Counting mint events in log order, which Ponder delivers, is
 * therefore reading the chain's edition, without an `editionOf` call per mint (an RPC round trip
 * per event would slow catch-up) or an edition in every event (gas on every claim).
 * `ClaimSkipped` events need no handler: a skipped claim minted nothing.
 */

import { type Context, type Event, ponder } from "ponder:registry";
import { claim, collectible } from "ponder:schema";
import { bytes16ToUuid, splitTokenId } from "@collectibles/contracts";
import { type Address, zeroAddress } from "viem";

const ZERO_BYTES16 = `0x${"0".repeat(32)}`;

/** Where a transfer happened; the same for TransferSingle and TransferBatch. */
type Source = Pick<Event<"Collectibles:TransferSingle">, "block" | "transaction" | "log">;

ponder.on("Collectibles:CollectibleCreated", async ({ event, context }) => {
  const { id, organizationId, creatorId, totalSupply, metadata } = event.args;
  await context.db
    .insert(collectible)
    .values({
      id: bytes16ToUuid(id),
      chainId: context.chain.id,
      contractAddress: event.log.address,
      organizationId: bytes16ToUuid(organizationId),
      creatorId: creatorId === ZERO_BYTES16 ? null : bytes16ToUuid(creatorId),
      totalSupply,
      claimedCount: 0n,
      availableCount: totalSupply,
      name: metadata.name,
      description: metadata.description,
      image: metadata.image,
      mimeType: metadata.mimeType,
      blockNumber: event.block.number,
      transactionHash: event.transaction.hash,
      logIndex: event.log.logIndex,
      timestamp: event.block.timestamp,
    })
    .onConflictDoNothing();
});

ponder.on("Collectibles:TransferSingle", async ({ event, context }) => {
  const { from, to, id, value } = event.args;
  await applyTransfer(context, event, from, to, id, value);
});

ponder.on("Collectibles:TransferBatch", async ({ event, context }) => {
  const { from, to, ids, values } = event.args;
  for (const [i, id] of ids.entries()) {
    await applyTransfer(context, event, from, to, id, values[i] ?? 0n);
  }
});

async function applyTransfer(
  context: Context,
  event: Source,
  from: Address,
  to: Address,
  tokenId: bigint,
  value: bigint,
) {
  // A token's balance is 0 or 1: a value-0 transfer is legal and moves nothing.
  if (value === 0n) return;
  if (from === zeroAddress) await recordMint(context, event, to, tokenId);
  else await recordMove(context, event, to, tokenId);
}

/** A mint from the zero address is a claim: its token id names the collectible and the claim. */
async function recordMint(context: Context, event: Source, to: Address, tokenId: bigint) {
  const { collectibleId, claimId } = splitTokenId(tokenId);
  const parent = await context.db.find(collectible, { id: collectibleId });
  if (!parent) {
    // The contract mints only for a collectible it created, after its creation event: a missing
    // row means the indexer started after the deployment block. Stop rather than miscount.
    throw new Error(`Mint of token ${tokenId} for unknown collectible ${collectibleId}`);
  }
  // The chain's edition: this is the collectible's next mint event in log order (see above).
  const edition = parent.claimedCount + 1n;
  // A plain insert, not onConflictDoNothing: Ponder then writes without reading first (on
  // PostgreSQL), and a token id is minted once by the contract (`ClaimAlreadyMinted`), so a
  // conflict here would be a bug to stop on, not a replay to skip.
  await context.db.insert(claim).values({
    tokenId,
    id: claimId,
    collectibleId,
    chainId: context.chain.id,
    contractAddress: event.log.address,
    edition,
    mintedTo: to,
    holder: to,
    blockNumber: event.block.number,
    transactionHash: event.transaction.hash,
    logIndex: event.log.logIndex,
    timestamp: event.block.timestamp,
  });
  await context.db.update(collectible, { id: collectibleId }).set({
    claimedCount: edition,
    availableCount: parent.totalSupply - edition,
  });
}

/** A value-1 transfer between holders: the token changes hands, nothing else changes. */
async function recordMove(context: Context, event: Source, to: Address, tokenId: bigint) {
  await context.db.update(claim, { tokenId }).set({
    holder: to,
    transferBlockNumber: event.block.number,
    transferTransactionHash: event.transaction.hash,
    transferTimestamp: event.block.timestamp,
  });
}
