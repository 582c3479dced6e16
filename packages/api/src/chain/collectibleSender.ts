/**
 * Creating collectibles on-chain: each waiting collectible in its own transaction. One the chain
 * already has (a resend after an unknown outcome) counts as mined; one it refuses fails with the
 * revert's name, and so do the claims waiting for it.
 */

import { uuidToBytes16 } from "@collectibles/contracts";
import {
  type CollectibleIntent,
  markCollectibleMined,
  unsentCollectibles,
} from "../db/chainIntents.ts";
import { markCollectibleFailed } from "../services/chainOutcomes.ts";
import { blockOf, type ContractCall, idOf, RevertedError } from "./contractCalls.ts";
import { dispatch, type Job, type RelayerContext } from "./relayerContext.ts";

/** Sends every collectible waiting to be created (at most maxInFlight at once). */
export async function sendCollectibles(ctx: RelayerContext): Promise<boolean> {
  const rows = await unsentCollectibles(ctx.db, ctx.maxInFlight);
  if (rows.length === 0) return false;
  const jobs: Job[] = [];
  for (const row of rows) {
    const call = createCall(row);
    try {
      const gas = await ctx.chain.estimate(call);
      jobs.push({
        call,
        gas,
        onMined: (tx) => markCollectibleMined(ctx.db, row.id, blockOf(tx), tx.hash),
        onReverted: () => collectibleRefused(ctx, row, call),
      });
    } catch (error) {
      if (!(error instanceof RevertedError)) throw error;
      await collectibleRefusedWith(ctx, row, error.reason);
    }
  }
  await dispatch(ctx, jobs);
  return true;
}

async function collectibleRefused(ctx: RelayerContext, row: CollectibleIntent, call: ContractCall) {
  try {
    await ctx.chain.estimate(call);
    ctx.needsReconcile = true; // Reverted once but fine now: look again before resending.
  } catch (error) {
    if (!(error instanceof RevertedError)) throw error;
    await collectibleRefusedWith(ctx, row, error.reason);
  }
}

async function collectibleRefusedWith(ctx: RelayerContext, row: CollectibleIntent, reason: string) {
  if (reason === "CollectibleAlreadyExists") {
    await markCollectibleMined(ctx.db, row.id, await ctx.chain.head(), null);
  } else {
    ctx.logger.warn({ collectible: row.id, reason }, "collectible refused by chain");
    await markCollectibleFailed(ctx.db, row.id, reason);
  }
  ctx.statusWaiter.statusesChanged();
}

function createCall(row: CollectibleIntent): ContractCall {
  return {
    functionName: "createCollectible",
    args: [
      uuidToBytes16(row.id),
      uuidToBytes16(row.organizationId),
      idOf(row.creatorId),
      BigInt(row.totalCount),
      {
        name: row.name,
        description: row.description ?? "",
        image: row.artwork ?? "",
        mimeType: row.mimeType ?? "",
      },
    ],
  };
}
