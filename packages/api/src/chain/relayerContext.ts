/**
 * What the relayer's parts share: the database and chain, the nonce of the next transaction, and
 * the two signals they raise (statuses changed, to the status waiter; the chain must be reconciled
 * before sending).
 */
import type { Database } from "../db/driver/client.ts";
import type { StatusWaiter } from "../deps.ts";
import type { Logger } from "../logger.ts";
import type { ChainClient } from "./chainClient.ts";
import type { ContractCall, MinedTransaction, Payment } from "./contractCalls.ts";

export interface RelayerContext {
  db: Database;
  chain: ChainClient;
  logger: Logger;
  batchSize: number;
  maxInFlight: number;
  /** Aborted when the relayer stops: transactions stop being followed. */
  signal: AbortSignal;
  /** The nonce of the next transaction; undefined: read it from the chain first. */
  nonce: number | undefined;
  /** A transaction's outcome is unknown: reconcile intents with the chain before sending. */
  needsReconcile: boolean;
  /** The chain contradicts what was recorded as mined: audit every object before sending. */
  needsAudit: boolean;
  /** Told when rows change state: requests waiting for them look at once. */
  statusWaiter: Pick<StatusWaiter, "statusesChanged">;
}

/** One transaction to send, and what to record once it is mined or reverted. */
export interface Job {
  call: ContractCall | Payment;
  gas: bigint;
  onMined(tx: MinedTransaction): Promise<void>;
  onReverted(tx: MinedTransaction): Promise<void>;
}

/**
 * Broadcasts the jobs with consecutive nonces, then waits for all of them. A broadcast that
 * fails leaves its outcome unknown: the nonce is re-read and intents reconciled before the next
 * send.
 */
export async function dispatch(ctx: RelayerContext, jobs: Job[]): Promise<void> {
  const sent: { job: Job; mined: Promise<MinedTransaction> }[] = [];
  let failure: unknown;
  for (const job of jobs) {
    ctx.nonce ??= await ctx.chain.pendingNonce();
    try {
      const tx = await ctx.chain.send(job.call, {
        gas: job.gas,
        nonce: ctx.nonce,
        signal: ctx.signal,
      });
      ctx.nonce++;
      // Its outcome is read below, after the later broadcasts: until then a rejection (the
      // relayer stopping) must not count as unhandled, which would end the process.
      tx.mined.catch(() => {});
      sent.push({ job, mined: tx.mined });
    } catch (error) {
      ctx.nonce = undefined;
      ctx.needsReconcile = true;
      failure = error;
      break;
    }
  }
  const results = await Promise.allSettled(sent.map((s) => s.mined));
  for (const [i, result] of results.entries()) {
    const job = sent[i]?.job;
    if (!job) continue;
    if (result.status === "rejected") {
      ctx.needsReconcile = true;
      continue;
    }
    if (result.value.status === "success") await job.onMined(result.value);
    else await job.onReverted(result.value);
  }
  if (sent.length > 0) ctx.statusWaiter.statusesChanged();
  if (failure) throw failure;
}
