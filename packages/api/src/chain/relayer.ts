/**
 * The relayer: the worker that turns stored intents (pending collectibles and claims) into
 * transactions, one sender per key.
 *
 * - It holds a database lock per sending key (PostgreSQL advisory lock): when several API
 *   processes run, one sends and the others wait to take over.
 * - On start, and whenever a transaction's outcome is unknown (an RPC error mid-send), it
 *   reconciles every unmined intent against the chain (`collectible(id)` exists, `isClaimed`)
 *   before sending anything again; the contract refuses a claim id it has seen, so nothing is
 *   minted twice even if a reconcile misses an in-flight transaction.
 * - Claims waiting at the same moment go out in `claimBatch` transactions of at most
 *   `batchSize`, grouped by collectible, several in flight with consecutive nonces. A batch that
 *   would revert (one receiver rejects) is split: its claims are sent alone, and the one the
 *   chain refuses fails with the revert's name as reason (its supply place is given back).
 * - Mined rows stay `pending` until the indexer has their block, then become `confirmed`.
 */
import { uuidToBytes16 } from "@collectibles/contracts";
import type { IndexerReader } from "@collectibles/indexer/reader";
import type { Address, Hex } from "viem";
import {
  type ClaimIntent,
  type CollectibleIntent,
  confirmMinedUpTo,
  highestMinedPendingBlock,
  markClaimFailed,
  markClaimsMined,
  markClaimsSendAlone,
  markCollectibleFailed,
  markCollectibleMined,
  unsentClaims,
  unsentCollectibles,
} from "../db/chainIntents.ts";
import type { DatabaseHandle, SessionLock } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import {
  type ChainClient,
  type ContractCall,
  idOf,
  type MinedTransaction,
  RevertedError,
} from "./chainClient.ts";

export interface RelayerOptions {
  database: Pick<DatabaseHandle, "db" | "tryLock">;
  chain: ChainClient;
  /** When absent, a mined row is confirmed at once. */
  indexer?: IndexerReader;
  logger: Logger;
  batchSize: number;
  maxInFlight: number;
  /** Called whenever rows change state (wakes waiting requests). */
  onChange?: () => void;
}

export interface RelayerStatus {
  lockHeld: boolean;
  lastError: string | null;
}

const IDLE_MS = 200;
const INDEXER_POLL_MS = 40;
const MAX_BACKOFF_MS = 5_000;
const LOCK_RETRY_MS = 2_000;

interface Job {
  call: ContractCall;
  gas: bigint;
  onMined(tx: MinedTransaction): Promise<void>;
  onReverted(tx: MinedTransaction): Promise<void>;
}

export class Relayer {
  private running = false;
  private loop: Promise<void> | undefined;
  private lock: SessionLock | null = null;
  private nonce: number | undefined;
  private needsReconcile = true;
  private awaitingIndexer = false;
  private wake: (() => void) | undefined;
  private lastError: string | null = null;
  private readonly abort = new AbortController();
  private readonly db;

  constructor(private readonly options: RelayerOptions) {
    this.db = options.database.db;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort();
    this.poke();
    await this.loop;
    await this.lock?.release().catch(() => {});
    this.lock = null;
  }

  /** Something new was stored: look now instead of at the next idle tick. */
  poke(): void {
    this.wake?.();
  }

  status(): RelayerStatus {
    return { lockHeld: this.lock !== null, lastError: this.lastError };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async run(): Promise<void> {
    const { logger, chain } = this.options;
    const lockName = `relayer:${chain.chainId}:${chain.address.toLowerCase()}`;
    let backoff = 0;
    let lastLockCheck = Date.now();
    while (this.running) {
      try {
        if (!this.lock) {
          this.lock = await this.options.database.tryLock(lockName);
          if (!this.lock) {
            await this.sleep(LOCK_RETRY_MS);
            continue;
          }
          logger.info({ relayer: chain.address }, "relayer holds the sending lock");
          this.needsReconcile = true;
        } else if (Date.now() - lastLockCheck > 5_000) {
          lastLockCheck = Date.now();
          if (!(await this.lock.alive())) {
            logger.warn("relayer lost its database lock; stopping sends until it is back");
            this.lock = null;
            continue;
          }
        }
        if (this.needsReconcile) {
          await this.reconcile();
          this.needsReconcile = false;
        }
        if (this.nonce === undefined) this.nonce = await chain.pendingNonce();
        const worked = await this.tick();
        backoff = 0;
        this.lastError = null;
        // Mined rows waiting for the indexer: look again soon rather than at the idle pace.
        if (!worked) await this.sleep(this.awaitingIndexer ? INDEXER_POLL_MS : IDLE_MS);
      } catch (error) {
        if (!this.running) break;
        this.nonce = undefined;
        backoff = Math.min(MAX_BACKOFF_MS, backoff ? backoff * 2 : 250);
        this.lastError = error instanceof Error ? (error.message.split("\n")[0] ?? "") : "error";
        logger.warn({ err: this.lastError, retryInMs: backoff }, "relayer: will retry");
        await this.sleep(backoff);
      }
    }
  }

  /** Marks every unmined intent the chain already has as mined (at the current block). */
  async reconcile(): Promise<void> {
    const { chain, logger } = this.options;
    const block = await chain.blockNumber();
    let found = 0;
    for (const row of await unsentCollectibles(this.db, 100_000)) {
      if (await chain.collectibleExists(row.id)) {
        await markCollectibleMined(this.db, row.id, block, null);
        found++;
      }
    }
    const pending = await unsentClaims(this.db, 1_000_000, { onlyMinedCollectibles: false });
    for (let i = 0; i < pending.length; i += 500) {
      const chunk = pending.slice(i, i + 500);
      const claimed = await Promise.all(
        chunk.map((row) => chain.isClaimed(row.collectibleId, row.id)),
      );
      const ids = chunk.filter((_, j) => claimed[j]).map((row) => row.id);
      await markClaimsMined(this.db, ids, block, null);
      found += ids.length;
    }
    this.nonce = await chain.pendingNonce();
    logger.info(
      { alreadyOnChain: found, waiting: pending.length - found },
      "relayer reconciled pending intents with the chain",
    );
    if (found > 0) this.options.onChange?.();
  }

  /** One round: confirm what the indexer has, create collectibles, send claims. */
  private async tick(): Promise<boolean> {
    const confirmed = await this.confirmIndexed();
    const created = await this.sendCollectibles();
    const sent = await this.sendClaims();
    return confirmed || created || sent;
  }

  private async confirmIndexed(): Promise<boolean> {
    const highest = await highestMinedPendingBlock(this.db);
    this.awaitingIndexer = highest !== null;
    if (highest === null) return false;
    let upTo = highest;
    if (this.options.indexer) {
      let indexed: bigint | null;
      try {
        indexed = await this.options.indexer.indexedBlock();
      } catch {
        return false; // The indexer is down: rows stay pending until it answers.
      }
      if (indexed === null) return false;
      upTo = indexed < highest ? indexed : highest;
    }
    const changed = await confirmMinedUpTo(this.db, upTo);
    if (changed > 0) this.options.onChange?.();
    // Still waiting for the indexer: wait a little rather than spin.
    return changed > 0;
  }

  private async sendCollectibles(): Promise<boolean> {
    const rows = await unsentCollectibles(this.db, this.options.maxInFlight);
    if (rows.length === 0) return false;
    const jobs: Job[] = [];
    for (const row of rows) {
      const call = createCall(row);
      try {
        const gas = await this.options.chain.estimate(call);
        jobs.push({
          call,
          gas,
          onMined: (tx) => markCollectibleMined(this.db, row.id, tx.blockNumber, tx.hash),
          onReverted: () => this.collectibleRefused(row, call),
        });
      } catch (error) {
        if (!(error instanceof RevertedError)) throw error;
        await this.collectibleRefusedWith(row, error.reason);
      }
    }
    await this.dispatch(jobs);
    return true;
  }

  private async collectibleRefused(row: CollectibleIntent, call: ContractCall) {
    try {
      await this.options.chain.estimate(call);
      this.needsReconcile = true; // Reverted once but fine now: look again before resending.
    } catch (error) {
      if (!(error instanceof RevertedError)) throw error;
      await this.collectibleRefusedWith(row, error.reason);
    }
  }

  private async collectibleRefusedWith(row: CollectibleIntent, reason: string) {
    if (reason === "CollectibleAlreadyExists") {
      await markCollectibleMined(this.db, row.id, await this.options.chain.blockNumber(), null);
    } else {
      this.options.logger.warn({ collectible: row.id, reason }, "collectible refused by chain");
      await markCollectibleFailed(this.db, row.id, reason);
    }
    this.options.onChange?.();
  }

  private async sendClaims(): Promise<boolean> {
    const { batchSize, maxInFlight, chain } = this.options;
    const rows = await unsentClaims(this.db, batchSize * maxInFlight);
    if (rows.length === 0) return false;
    const alone = rows.filter((row) => row.sendAlone);
    // Consecutive claims of one collectible share one supply update in claimBatch.
    const together = rows
      .filter((row) => !row.sendAlone)
      .sort((a, b) =>
        a.collectibleId < b.collectibleId ? -1 : a.collectibleId > b.collectibleId ? 1 : 0,
      );
    const batches: ClaimIntent[][] = [];
    for (let i = 0; i < together.length; i += batchSize) {
      batches.push(together.slice(i, i + batchSize));
    }
    const estimates = await Promise.allSettled([
      ...batches.map((batch) => chain.estimate(batchCall(batch))),
      ...alone.map((row) => chain.estimate(claimCall(row))),
    ]);
    const jobs: Job[] = [];
    for (const [i, batch] of batches.entries()) {
      const estimate = estimates[i];
      if (estimate?.status === "fulfilled") {
        const ids = batch.map((row) => row.id);
        jobs.push({
          call: batchCall(batch),
          gas: estimate.value,
          onMined: (tx) => markClaimsMined(this.db, ids, tx.blockNumber, tx.hash),
          onReverted: () => markClaimsSendAlone(this.db, ids),
        });
      } else if (estimate?.reason instanceof RevertedError) {
        // One claim spoils the batch: send each alone to find it.
        this.options.logger.info(
          { claims: batch.length, reason: estimate.reason.reason },
          "claim batch would revert; sending its claims one by one",
        );
        await markClaimsSendAlone(
          this.db,
          batch.map((row) => row.id),
        );
      } else {
        throw estimate?.reason;
      }
    }
    for (const [j, row] of alone.entries()) {
      const estimate = estimates[batches.length + j];
      if (estimate?.status === "fulfilled") {
        jobs.push({
          call: claimCall(row),
          gas: estimate.value,
          onMined: (tx) => markClaimsMined(this.db, [row.id], tx.blockNumber, tx.hash),
          onReverted: async () => {
            try {
              await chain.estimate(claimCall(row));
              this.needsReconcile = true;
            } catch (error) {
              if (!(error instanceof RevertedError)) throw error;
              await this.claimRefused(row, error.reason);
            }
          },
        });
      } else if (estimate?.reason instanceof RevertedError) {
        await this.claimRefused(row, estimate.reason.reason);
      } else {
        throw estimate?.reason;
      }
    }
    await this.dispatch(jobs);
    return true;
  }

  private async claimRefused(row: ClaimIntent, reason: string) {
    if (reason === "ClaimAlreadyMinted") {
      // Minted by an earlier transaction whose outcome we did not see: it is done.
      await markClaimsMined(this.db, [row.id], await this.options.chain.blockNumber(), null);
    } else {
      this.options.logger.warn({ claim: row.id, reason }, "claim refused by chain");
      await markClaimFailed(this.db, row.id, reason);
    }
    this.options.onChange?.();
  }

  /**
   * Broadcasts the jobs with consecutive nonces, then waits for all of them. A broadcast that
   * fails leaves its outcome unknown: the nonce is re-read and intents reconciled before the
   * next send.
   */
  private async dispatch(jobs: Job[]): Promise<void> {
    const { chain } = this.options;
    const sent: { job: Job; mined: Promise<MinedTransaction> }[] = [];
    let failure: unknown;
    for (const job of jobs) {
      if (this.nonce === undefined) this.nonce = await chain.pendingNonce();
      try {
        const tx = await chain.send(job.call, {
          gas: job.gas,
          nonce: this.nonce,
          signal: this.abort.signal,
        });
        this.nonce++;
        sent.push({ job, mined: tx.mined });
      } catch (error) {
        this.nonce = undefined;
        this.needsReconcile = true;
        failure = error;
        break;
      }
    }
    const results = await Promise.allSettled(sent.map((s) => s.mined));
    for (const [i, result] of results.entries()) {
      const job = sent[i]?.job;
      if (!job) continue;
      if (result.status === "rejected") {
        this.needsReconcile = true;
        continue;
      }
      if (result.value.status === "success") await job.onMined(result.value);
      else await job.onReverted(result.value);
    }
    if (sent.length > 0) this.options.onChange?.();
    if (failure) throw failure;
  }
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

function claimCall(row: ClaimIntent): ContractCall {
  return {
    functionName: "claim",
    args: [uuidToBytes16(row.collectibleId), uuidToBytes16(row.id), row.mintedTo as Address],
  };
}

function batchCall(batch: ClaimIntent[]): ContractCall {
  return {
    functionName: "claimBatch",
    args: [
      batch.map((row) => ({
        collectibleId: uuidToBytes16(row.collectibleId) as Hex,
        claimId: uuidToBytes16(row.id) as Hex,
        to: row.mintedTo as Address,
      })),
    ],
  };
}
