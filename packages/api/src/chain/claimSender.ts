/**
 * Minting claims: the claims waiting at the same moment go out in `claimBatch` transactions of at
 * most `batchSize`, grouped by collectible, several in flight with consecutive nonces. The contract
 * skips a claim whose receiver refuses or exceeds its hook gas budget and mints the others: that
 * claim fails with its reason (its supply place is given back), nobody else's is sent again. A
 * batch that would revert as a whole, whose estimate is above its gas ceiling, or that reverted
 * when mined (out of gas: a receiver that became a contract after the estimate) is split in
 * halves, recursively, and its claims keep to that size from then on (`batch_limit`); a claim
 * that alone would revert fails with the revert's name.
 */

import { encodeClaimRuns, SkipReason, uuidToBytes16 } from "@collectibles/contracts";
import type { Address } from "viem";
import {
  type ClaimIntent,
  limitClaimBatches,
  markClaimsMined,
  unsentClaims,
} from "../db/chainIntents.ts";
import { markClaimFailed } from "../services/chainOutcomes.ts";
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
  const rows = await unsentClaims(ctx.db, ctx.batchSize * ctx.maxInFlight);
  if (rows.length === 0) return false;
  const jobs: Job[] = [];
  const planned = await Promise.allSettled(
    batchesOf(rows, ctx.batchSize).map((batch) => plan(ctx, batch, jobs)),
  );
  for (const result of planned) if (result.status === "rejected") throw result.reason;
  // The chain lacks a collectible recorded as mined: check everything before sending more.
  if (planned.some((result) => result.status === "fulfilled" && !result.value)) return true;
  await dispatch(ctx, jobs);
  return true;
}

/**
 * Batches of at most `batchSize` claims, none above the batch limit of a claim in it; claims
 * of one collectible next to each other (one run: one supply update in claimBatch).
 */
export function batchesOf(rows: ClaimIntent[], batchSize: number): ClaimIntent[][] {
  const byLimit = new Map<number, ClaimIntent[]>();
  for (const row of rows) {
    const limit = Math.max(1, Math.min(row.batchLimit ?? batchSize, batchSize));
    const group = byLimit.get(limit);
    if (group) group.push(row);
    else byLimit.set(limit, [row]);
  }
  const batches: ClaimIntent[][] = [];
  for (const [limit, group] of byLimit) {
    group.sort((a, b) =>
      a.collectibleId < b.collectibleId ? -1 : a.collectibleId > b.collectibleId ? 1 : 0,
    );
    for (let i = 0; i < group.length; i += limit) batches.push(group.slice(i, i + limit));
  }
  return batches;
}

/**
 * Adds the job that sends `batch` with its gas limit. When its estimate reverts or is above its
 * ceiling, its halves are planned instead (recursively), and a claim that alone would revert or
 * exceed the ceiling fails. Answers false when the chain lacks the batch's collectible.
 */
async function plan(ctx: RelayerContext, batch: ClaimIntent[], jobs: Job[]): Promise<boolean> {
  const call = batchCall(batch);
  let gas: bigint;
  try {
    gas = await ctx.chain.claimBatchGasLimit(call, serviceWalletsOf(batch));
  } catch (error) {
    if (!(error instanceof RevertedError || error instanceof GasCapExceededError)) throw error;
    if (error instanceof RevertedError && error.reason === "UnknownCollectible") {
      // Its collectible was recorded as mined, yet the chain lacks it: the chain is not what was
      // recorded (a node restored from an older state). Check everything before sending more.
      ctx.logger.warn({ claim: batch[0]?.id }, "the chain lacks a collectible recorded as mined");
      ctx.needsAudit = true;
      return false;
    }
    const [only] = batch;
    if (batch.length === 1 && only) {
      const reason = error instanceof RevertedError ? error.reason : CLAIM_FAILURE.gasCapExceeded;
      await claimRefused(ctx, only, reason);
      return true;
    }
    ctx.logger.info(
      { claims: batch.length, reason: error.message },
      "claim batch would revert or exceed its gas ceiling; trying its halves",
    );
    const halves = await split(ctx, batch);
    const planned = await Promise.all(halves.map((half) => plan(ctx, half, jobs)));
    return planned.every(Boolean);
  }
  jobs.push({
    call,
    gas,
    onMined: (tx) => batchMined(ctx, batch, tx),
    onReverted: () => batchReverted(ctx, batch, call),
  });
  return true;
}

/** The halves of a batch; its claims go in batches of at most half its size from now on. */
async function split(ctx: RelayerContext, batch: ClaimIntent[]): Promise<ClaimIntent[][]> {
  const half = Math.ceil(batch.length / 2);
  await limitClaimBatches(
    ctx.db,
    batch.map((row) => row.id),
    half,
  );
  return [batch.slice(0, half), batch.slice(half)];
}

/**
 * A mined batch: the claims the contract skipped fail with their reason (or, skipped as minted
 * before, count as mined), the others are mined.
 */
async function batchMined(ctx: RelayerContext, batch: ClaimIntent[], tx: MinedTransaction) {
  const skipped = new Set<string>();
  const mintedBefore: string[] = [];
  for (const { claim, row } of skippedRows(batch, tx)) {
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
  const block = blockOf(tx);
  await markClaimsMined(
    ctx.db,
    batch.filter((row) => !skipped.has(row.id)).map((row) => row.id),
    block,
    tx.hash,
  );
  if (mintedBefore.length > 0) await markClaimsMined(ctx.db, mintedBefore, block, null);
}

/** The batch's claims the contract skipped, each with its row (none in most batches). */
function skippedRows(batch: ClaimIntent[], tx: MinedTransaction) {
  if (tx.skipped.length === 0) return [];
  const rowOf = new Map(
    batch.map((row) => [
      `${uuidToBytes16(row.collectibleId)}${uuidToBytes16(row.id)}`.toLowerCase(),
      row,
    ]),
  );
  return tx.skipped.flatMap((claim) => {
    const row = rowOf.get(`${claim.collectibleId}${claim.claimId}`.toLowerCase());
    return row ? [{ claim, row }] : [];
  });
}

/**
 * A batch reverted when mined although its estimate passed (out of gas: a receiver's hook cost
 * more, or an account became a contract): its halves go next, until a claim at fault is alone.
 */
async function batchReverted(ctx: RelayerContext, batch: ClaimIntent[], call: ClaimBatchCall) {
  const [only] = batch;
  if (batch.length > 1 || !only) {
    ctx.logger.info(
      { claims: batch.length },
      "claim batch reverted when mined; sending its halves",
    );
    await split(ctx, batch);
    return;
  }
  try {
    await ctx.chain.claimBatchGasLimit(call);
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
  ctx.statusWaiter.statusesChanged();
}

/** The batch's receivers that are service wallets, lower case: they have no code to look up. */
function serviceWalletsOf(batch: ClaimIntent[]): Set<string> {
  return new Set(
    batch.filter((claim) => claim.toServiceWallet).map((claim) => claim.mintedTo.toLowerCase()),
  );
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
