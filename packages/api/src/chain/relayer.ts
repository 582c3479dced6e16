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
 *   `batchSize`, grouped by collectible, several in flight with consecutive nonces. The contract
 *   skips a claim whose receiver refuses or exceeds its hook gas budget and mints the others, so
 *   a refusing receiver never costs the others a resend: its claim fails with
 *   `recipient_refused` / `recipient_gas_exceeded` (its supply place is given back).
 * - Every batch's gas limit is capped by `claimBatchGasCeiling` (batch size and hook budget);
 *   fees stop at the configured cap, and `status()` names a transaction stuck there.
 * - A batch that would revert as a whole (something the relayer got wrong, e.g. a collectible
 *   the chain does not know) or whose estimate is above its ceiling is split: its claims are
 *   sent one per batch, and one the chain refuses fails with the revert's name as reason.
 * - Mined rows stay `pending` until the indexer has their block, then become `confirmed`.
 */
import { encodeClaimRuns, SkipReason, uuidToBytes16 } from "@collectibles/contracts";
import type { IndexerReader } from "@collectibles/indexer/reader";
import type { Address } from "viem";
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
  type ClaimBatchCall,
  type ContractCall,
  GasCapExceededError,
  idOf,
  type MinedTransaction,
  RevertedError,
  type StuckTransaction,
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
  /** Transactions unmined past the replacement delay although they offer the fee cap. */
  stuckAtFeeCap: StuckTransaction[];
}

/** `failure_reason`s the relayer gives a claim, besides the name of a revert. */
export const CLAIM_FAILURE = {
  recipientRefused: "recipient_refused",
  recipientGasExceeded: "recipient_gas_exceeded",
  soldOut: "sold_out",
  gasCapExceeded: "gas_cap_exceeded",
} as const;

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
    return {
      lockHeld: this.lock !== null,
      lastError: this.lastError,
      stuckAtFeeCap: this.options.chain.stuckAtFeeCap(),
    };
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
          onMined: (tx) => this.batchMined(batch, tx),
          onReverted: () => this.batchReverted(batch),
        });
        continue;
      }
      const error = limit?.reason;
      if (!(error instanceof RevertedError || error instanceof GasCapExceededError)) throw error;
      const [only] = batch;
      if (batch.length === 1 && only) {
        await this.claimRefused(
          only,
          error instanceof RevertedError ? error.reason : CLAIM_FAILURE.gasCapExceeded,
        );
        continue;
      }
      this.options.logger.info(
        { claims: batch.length, reason: error.message },
        "claim batch would revert or exceed its gas ceiling; sending its claims one per batch",
      );
      await markClaimsSendAlone(
        this.db,
        batch.map((row) => row.id),
      );
    }
    await this.dispatch(jobs);
    return true;
  }

  /**
   * A mined batch: the claims the contract skipped fail with their reason (or, skipped as minted
   * before, count as mined), the others are mined.
   */
  private async batchMined(batch: ClaimIntent[], tx: MinedTransaction) {
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
      this.options.logger.warn(
        { claim: row.id, reason, transaction: tx.hash },
        "claim skipped by the chain",
      );
      await markClaimFailed(this.db, row.id, reason, tx.hash);
    }
    await markClaimsMined(
      this.db,
      batch.filter((row) => !skipped.has(row.id)).map((row) => row.id),
      tx.blockNumber,
      tx.hash,
    );
    await markClaimsMined(this.db, mintedBefore, tx.blockNumber, null);
  }

  /** A batch reverted when mined although its estimate passed: find out claim by claim. */
  private async batchReverted(batch: ClaimIntent[]) {
    const [only] = batch;
    if (batch.length > 1 || !only) {
      await markClaimsSendAlone(
        this.db,
        batch.map((row) => row.id),
      );
      return;
    }
    try {
      await this.options.chain.claimBatchGasLimit(batchCall(batch));
      this.needsReconcile = true; // Reverted once but fine now: look again before resending.
    } catch (error) {
      if (error instanceof RevertedError) await this.claimRefused(only, error.reason);
      else if (error instanceof GasCapExceededError) {
        await this.claimRefused(only, CLAIM_FAILURE.gasCapExceeded);
      } else throw error;
    }
  }

  private async claimRefused(row: ClaimIntent, reason: string) {
    this.options.logger.warn({ claim: row.id, reason }, "claim refused by chain");
    await markClaimFailed(this.db, row.id, reason);
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
