/**
 * The relayer: the worker that turns stored intents (pending collectibles and claims) into
 * transactions, one sender per key.
 *
 * - It holds a database lock per sending key (PostgreSQL advisory lock): when several API
 *   processes run, one sends and the others wait to take over.
 * - On start, and whenever a transaction's outcome is unknown, it reconciles intents with the
 *   chain before sending (`reconcile.ts`).
 * - Each round it confirms what the indexer has (mined rows stay `pending` until the indexer has
 *   their block), creates collectibles (`collectibleSender.ts`), sends claims in batches
 *   (`claimSender.ts`) and moves tokens home to linked wallets (`homeSender.ts`). While a send
 *   round waits for its transactions to be mined, rounds go on confirming what is indexed.
 * - Once a second it follows finality (`finality.ts`): a row whose block a reorg replaced goes
 *   back to pending, and rows below the chain's finalized block become final.
 * - Fees stop at the configured cap, and `status()` names a transaction stuck there.
 */

import { IndexerUnavailableError } from "@collectibles/indexer/reader";
import { BaseError } from "viem";
import { minedPendingBlock } from "../db/chainIntents.ts";
import type { SessionLock } from "../db/driver/client.ts";
import { errorLine } from "../db/driver/pgError.ts";
import type { ReorgSeen } from "../deps.ts";
import { confirmMinedUpTo } from "../services/chainOutcomes.ts";
import { auditChain, ChainMismatchError } from "./chainAudit.ts";
import { sendClaims } from "./claimSender.ts";
import { sendCollectibles } from "./collectibleSender.ts";
import { followFinality } from "./finality.ts";
import { sendHome } from "./homeSender.ts";
import { reconcile } from "./reconcile.ts";
import type { RelayerContext } from "./relayerContext.ts";
import type { RelayerOptions, RelayerStatus } from "./relayerOptions.ts";

const IDLE_MS = 200;
const INDEXER_POLL_MS = 40;
const MAX_BACKOFF_MS = 5_000;
const LOCK_RETRY_MS = 2_000;
const FINALITY_POLL_MS = 1_000;
/** The longest wait before a confirm that found nothing is tried again with the same bounds. */
const FRUITLESS_CONFIRM_MAX_WAIT_MS = 1_000;

/** An error in one line, no SQL (/ready shows it); a viem error with the node's own `details`. */
function oneLine(error: unknown): string {
  if (error instanceof BaseError) {
    return error.details ? `${error.shortMessage} (${error.details})` : error.shortMessage;
  }
  return errorLine(error);
}

export class Relayer {
  private running = false;
  private loop: Promise<void> | undefined;
  private lock: SessionLock | null = null;
  private awaitingIndexer = false;
  private wake: (() => void) | undefined;
  /** A poke came while the loop was not sleeping: its next sleep returns at once. */
  private poked = false;
  /** The send round in flight (never rejects), and why the last one failed, for the loop. */
  private sending: Promise<void> | undefined;
  private sendFailure: { error: unknown } | undefined;
  private backoff = 0;
  private lastError: string | null = null;
  private failingSince: number | null = null;
  private audited = false;
  /** The last try to take the sending lock found another process holding it. */
  private lockedOut = false;
  private chainProblem: string | null = null;
  private lastReorg: ReorgSeen | null = null;
  private finalityCheckedAt = 0;
  /** The bounds of the last confirm that confirmed nothing, when it ran, and how many did so. */
  private fruitlessConfirm: { bounds: string; at: number; times: number } | null = null;
  private readonly abort = new AbortController();
  private readonly ctx: RelayerContext;
  private readonly options: RelayerOptions;

  constructor(options: RelayerOptions) {
    this.options = options;
    this.ctx = {
      db: options.database.db,
      chain: options.chain,
      logger: options.logger,
      batchSize: options.batchSize,
      maxInFlight: options.maxInFlight,
      signal: this.abort.signal,
      nonce: undefined,
      needsReconcile: true,
      needsAudit: false,
      statusWaiter: options.statusWaiter,
    };
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
    await this.sending;
    await this.lock?.release().catch(() => {});
    this.lock = null;
  }

  /** Something new was stored: look now instead of at the next idle tick. */
  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  status(): RelayerStatus {
    return {
      lockHeld: this.lock !== null,
      lastError: this.lastError,
      failingSince: this.failingSince,
      stuckAtFeeCap: this.options.chain.stuckAtFeeCap(),
      chainProblem: this.chainProblem,
      // Another process holding the lock audits; this one cannot.
      auditPending: Boolean(this.options.audit?.objects) && !this.audited && !this.lockedOut,
      lastReorg: this.lastReorg,
    };
  }

  private async sleep(ms: number): Promise<void> {
    if (!this.poked) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wake = done;
      });
    }
    this.poked = false;
  }

  private async run(): Promise<void> {
    const { logger, chain } = this.options;
    const ctx = this.ctx;
    const lockName = `relayer:${chain.chainId}:${chain.address.toLowerCase()}`;
    let lastLockCheck = Date.now();
    while (this.running) {
      try {
        if (!this.lock) {
          this.lock = await this.options.database.tryLock(lockName);
          this.lockedOut = !this.lock;
          if (!this.lock) {
            await this.sleep(LOCK_RETRY_MS);
            continue;
          }
          logger.info({ relayer: chain.address }, "relayer holds the sending lock");
          ctx.needsReconcile = true;
        } else if (Date.now() - lastLockCheck > 5_000) {
          lastLockCheck = Date.now();
          if (!(await this.lock.alive())) {
            logger.warn("relayer lost its database lock; stopping sends until it is back");
            this.lock = null;
            continue;
          }
        }
        if (this.chainProblem) {
          await this.sleep(LOCK_RETRY_MS);
          continue;
        }
        const mustAudit = (!this.audited || ctx.needsAudit) && this.options.audit;
        if (this.sendFailure || mustAudit || ctx.needsReconcile) await this.settleSending();
        if (mustAudit && this.options.audit) {
          const objects = this.options.audit.objects || ctx.needsAudit;
          await auditChain(ctx, { ...this.options.audit, objects });
          this.audited = true;
          ctx.needsAudit = false;
        }
        if (ctx.needsReconcile) {
          await reconcile(ctx);
          ctx.needsReconcile = false;
        }
        ctx.nonce ??= await chain.pendingNonce();
        const worked = await this.tick();
        // Mined rows waiting for the indexer: look again soon rather than at the idle pace.
        if (!worked) await this.sleep(this.awaitingIndexer ? INDEXER_POLL_MS : IDLE_MS);
      } catch (error) {
        if (!this.running) break;
        if (error instanceof ChainMismatchError) {
          // Sending would build on a chain that is not the recorded one: stop for good.
          this.chainProblem = error.message;
          logger.error({ err: error.message }, "relayer stopped: the chain does not match");
          continue;
        }
        // A round in flight holds the nonce: it resets it itself if it fails.
        if (!this.sending) ctx.nonce = undefined;
        this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff ? this.backoff * 2 : 250);
        this.lastError = oneLine(error);
        this.failingSince ??= Date.now();
        logger.warn({ err: this.lastError, retryInMs: this.backoff }, "relayer: will retry");
        await this.sleep(this.backoff);
      }
    }
  }

  /** Waits for the send round in flight, raising why it failed. */
  private async settleSending(): Promise<void> {
    await this.sending;
    const failure = this.sendFailure;
    this.sendFailure = undefined;
    if (failure) throw failure.error;
  }

  /**
   * One round: take back what a reorg replaced and make final what is (once a second), confirm
   * what the indexer has, and start sending: create collectibles, send claims, move tokens home.
   * While a send round waits for its transactions, a round only confirms.
   */
  private async tick(): Promise<boolean> {
    if (this.sending) return this.confirmIndexed();
    if (Date.now() - this.finalityCheckedAt >= FINALITY_POLL_MS) {
      this.finalityCheckedAt = Date.now();
      const reorg = await followFinality(this.ctx, this.options.finalityDepth);
      if (reorg) {
        this.lastReorg = reorg;
        return true; // Reconcile with the chain (the loop does it first) before sending.
      }
    }
    const confirmed = await this.confirmIndexed();
    this.sending = this.sendRound().then(
      (sent) => {
        this.sending = undefined;
        this.backoff = 0;
        this.lastError = null;
        this.failingSince = null;
        if (sent) this.poke(); // Look again at once, as after any round that sent.
      },
      (error: unknown) => {
        this.sending = undefined;
        this.sendFailure = { error };
        this.poke();
      },
    );
    return confirmed;
  }

  private async sendRound(): Promise<boolean> {
    const created = await sendCollectibles(this.ctx);
    const sent = await sendClaims(this.ctx);
    const home = this.options.home ? await sendHome(this.ctx, this.options.home) : false;
    return created || sent || home;
  }

  private async confirmIndexed(): Promise<boolean> {
    const highest = await minedPendingBlock(this.ctx.db, "highest");
    this.awaitingIndexer = highest !== null;
    if (highest === null) return false;
    let upTo = highest;
    const indexer = this.options.indexer;
    if (indexer) {
      let indexed: bigint | null;
      try {
        indexed = await indexer.indexedBlock();
      } catch {
        return false; // The indexer is down: rows stay pending until it answers.
      }
      if (indexed === null) return false;
      upTo = indexed < highest ? indexed : highest;
    }
    const depth = BigInt(this.options.confirmationDepth);
    if (depth > 0n) {
      const deepEnough = (await this.ctx.chain.blockNumber()) - depth;
      if (deepEnough < upTo) upTo = deepEnough;
    }
    // Rows the indexer has passed without their mint (it follows another contract; /ready says
    // so) are not waited for at the indexer's pace: asked for again at once when the rows or the
    // confirmable block moved, else after a wait that doubles from 40 ms to a second (checked
    // at the idle pace once the indexer is past every row, so 1.2 s at most).
    this.awaitingIndexer = upTo < highest;
    const bounds = `${highest}:${upTo}`;
    const fruitless = this.fruitlessConfirm?.bounds === bounds ? this.fruitlessConfirm : null;
    if (fruitless) {
      const wait = Math.min(FRUITLESS_CONFIRM_MAX_WAIT_MS, INDEXER_POLL_MS * 2 ** fruitless.times);
      if (performance.now() - fruitless.at < wait) return false;
    }
    let changed: number;
    try {
      changed = await confirmMinedUpTo(this.ctx.db, upTo, indexer);
    } catch (error) {
      // The indexer stopped answering: confirm in a later round. Anything else is a fault the
      // loop reports (and /ready shows), not a silent wait.
      if (error instanceof IndexerUnavailableError) return false;
      throw error;
    }
    this.fruitlessConfirm =
      changed > 0 ? null : { bounds, at: performance.now(), times: (fruitless?.times ?? 0) + 1 };
    if (changed > 0) this.ctx.statusWaiter.statusesChanged();
    // Still waiting for the indexer: wait a little rather than spin.
    return changed > 0;
  }
}
