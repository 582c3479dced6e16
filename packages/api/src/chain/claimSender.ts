/**
 * Minting claims: the claims waiting at the same moment go out in `claimBatch` transactions of at
 * most `batchSize`, grouped by collectible, several in flight with consecutive nonces. The contract
 * skips a claim whose receiver refuses or exceeds its hook gas budget and mints the others: that
 * claim fails with its reason (its supply place is given back), nobody else's is sent again. A
 * batch that would revert as a whole, or whose estimate is above its gas ceiling, is split: its
 * claims go one per batch, and one the chain refuses fails with the revert's name.
 */
import { encodeClaimRuns, SkipReason, uuidToBytes16 } from "@collectibles/contracts";
import type { Address } from "viem";
import {
  type ClaimIntent,
  markClaimFailed,
  markClaimsMined,
  markClaimsSendAlone,
  unsentClaims,
} from "../db/chainIntents.ts";
import {
  blockOf,
  type ClaimBatchCall,
  GasCapExceededError,
  type MinedTransaction,
  RevertedError,
} from "./contractCalls.ts";
import { dispatch, type Job, type RelayerContext } from "./relayerContext.ts";

/** `failure_reason`s the relayer gives a claim, besides the name of a revert. */
export const CLAIM_FAILURE = {
  recipientRefused: "recipient_refused",
  recipientGasExceeded: "recipient_gas_exceeded",
  soldOut: "sold_out",
  gasCapExceeded: "gas_cap_exceeded",
} as const;

/** Sends the waiting claims in `claimBatch` transactions, several in flight. */
export async function sendClaims(ctx: RelayerContext): Promise<boolean> {
  const { batchSize, maxInFlight, chain } = ctx;
  const rows = await unsentClaims(ctx.db, batchSize * maxInFlight);
  if (rows.length === 0) return false;
  // Consecutive claims of one collectible form one run: one supply update in claimBatch.
  const together = rows
    .filter((row) => !row.sendAlone)
    .sort((a, b) =>
      a.collectibleId < b.collectibleId ? -1 : a.collectibleId > b.collectibleId ? 1 : 0,
    );
  const batches: ClaimIntent[][] = [];
  for (let i = 0; i < together.length; i += batchSize) {
    batches.push(together.slice(i, i + batchSize));
  }
  // Claims split off a batch that would revert go one per batch, to find the one at fault.
  for (const row of rows) if (row.sendAlone) batches.push([row]);
  const limits = await Promise.allSettled(
    batches.map((batch) => chain.claimBatchGasLimit(batchCall(batch))),
  );
  const jobs: Job[] = [];
  for (const [i, batch] of batches.entries()) {
    const limit = limits[i];
    if (limit?.status === "fulfilled") {
      jobs.push({
        call: batchCall(batch),
        gas: limit.value,
        onMined: (tx) => batchMined(ctx, batch, tx),
        onReverted: () => batchReverted(ctx, batch),
      });
      continue;
    }
    const error = limit?.reason;
    if (!(error instanceof RevertedError || error instanceof GasCapExceededError)) throw error;
    const [only] = batch;
    if (error instanceof RevertedError && error.reason === "UnknownCollectible") {
      // Its collectible was recorded as mined, yet the chain lacks it: the chain is not what was
      // recorded (a node restored from an older state). Check everything before sending more.
      ctx.logger.warn({ claim: batch[0]?.id }, "the chain lacks a collectible recorded as mined");
      ctx.needsAudit = true;
      return true;
    }
    if (batch.length === 1 && only) {
      await claimRefused(
        ctx,
        only,
        error instanceof RevertedError ? error.reason : CLAIM_FAILURE.gasCapExceeded,
      );
      continue;
    }
    ctx.logger.info(
      { claims: batch.length, reason: error.message },
      "claim batch would revert or exceed its gas ceiling; sending its claims one per batch",
    );
    await markClaimsSendAlone(
      ctx.db,
      batch.map((row) => row.id),
    );
  }
  await dispatch(ctx, jobs);
  return true;
}

/**
 * A mined batch: the claims the contract skipped fail with their reason (or, skipped as minted
 * before, count as mined), the others are mined.
 */
async function batchMined(ctx: RelayerContext, batch: ClaimIntent[], tx: MinedTransaction) {
  const rowOf = new Map(
    batch.map((row) => [
      `${uuidToBytes16(row.collectibleId)}${uuidToBytes16(row.id)}`.toLowerCase(),
      row,
    ]),
  );
  const skipped = new Set<string>();
  const mintedBefore: string[] = [];
  for (const claim of tx.skipped) {
    const row = rowOf.get(`${claim.collectibleId}${claim.claimId}`.toLowerCase());
    if (!row) continue;
    skipped.add(row.id);
    if (claim.reason === SkipReason.AlreadyMinted) {
      // Minted by an earlier transaction whose outcome we did not see: it is done.
      mintedBefore.push(row.id);
      continue;
    }
    const reason =
      claim.reason === SkipReason.ReceiverRefused
        ? CLAIM_FAILURE.recipientRefused
        : claim.reason === SkipReason.ReceiverGasExceeded
          ? CLAIM_FAILURE.recipientGasExceeded
          : CLAIM_FAILURE.soldOut;
    ctx.logger.warn({ claim: row.id, reason, transaction: tx.hash }, "claim skipped by the chain");
    await markClaimFailed(ctx.db, row.id, reason, tx.hash);
  }
  await markClaimsMined(
    ctx.db,
    batch.filter((row) => !skipped.has(row.id)).map((row) => row.id),
    blockOf(tx),
    tx.hash,
  );
  await markClaimsMined(ctx.db, mintedBefore, blockOf(tx), null);
}

/** A batch reverted when mined although its estimate passed: find out claim by claim. */
async function batchReverted(ctx: RelayerContext, batch: ClaimIntent[]) {
  const [only] = batch;
  if (batch.length > 1 || !only) {
    await markClaimsSendAlone(
      ctx.db,
      batch.map((row) => row.id),
    );
    return;
  }
  try {
    await ctx.chain.claimBatchGasLimit(batchCall(batch));
    ctx.needsReconcile = true; // Reverted once but fine now: look again before resending.
  } catch (error) {
    if (error instanceof RevertedError) await claimRefused(ctx, only, error.reason);
    else if (error instanceof GasCapExceededError) {
      await claimRefused(ctx, only, CLAIM_FAILURE.gasCapExceeded);
    } else throw error;
  }
}

async function claimRefused(ctx: RelayerContext, row: ClaimIntent, reason: string) {
  ctx.logger.warn({ claim: row.id, reason }, "claim refused by chain");
  await markClaimFailed(ctx.db, row.id, reason);
  ctx.changed();
}

function batchCall(batch: ClaimIntent[]): ClaimBatchCall {
  return {
    functionName: "claimBatch",
    args: [
      encodeClaimRuns(
        batch.map((row) => ({
          collectibleId: uuidToBytes16(row.collectibleId),
          claimId: uuidToBytes16(row.id),
          to: row.mintedTo as Address,
        })),
      ),
    ],
  };
}
