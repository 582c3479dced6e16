/**
 * The `sync` readiness check: how far each part is behind — the chain's head against the block
 * the indexer has, the block whose transfers the API's holders include (its projection of the
 * indexer), and the relayer's backlog of pending claims — reported on every /ready, and
 * unready (503) once the chain stops answering or the indexer is more than READY_MAX_LAG_BLOCKS
 * behind for READY_LAG_GRACE_SECONDS, or an object mined in a block the indexer has passed (and
 * CONFIRMATION_DEPTH deep) stays pending that long (an indexer following another contract, a
 * relayer that fails quietly): confirmations have stopped, and a load balancer or an operator
 * should know, although every part still answers its own ping.
 */
import type { IndexerReader } from "@collectibles/indexer/reader";
import { minedPendingBlock } from "../db/chainIntents.ts";
import type { Database } from "../db/driver/client.ts";
import { pendingBacklog } from "../db/finality.ts";
import { transfersFollowedTo } from "../db/transfersFollowed.ts";
import type { ReadinessCheck } from "../deps.ts";
import type { ChainClient } from "./chainClient.ts";

export interface SyncCheckOptions {
  chain: Pick<ChainClient, "blockNumber">;
  indexer?: Pick<IndexerReader, "indexedBlock">;
  db: Database;
  maxLagBlocks: number;
  graceMs: number;
  /** Blocks below the head before a mined object may be confirmed (CONFIRMATION_DEPTH). */
  confirmationDepth: number;
}

/** Each read is cut short well inside /ready's own 2 s bound: a stalled part is the finding. */
const READ_TIMEOUT_MS = 700;

function within<T>(promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, READ_TIMEOUT_MS, undefined);
  });
  return Promise.race([promise.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

/**
 * The highest block whose mined objects the relayer's next round confirms: deep enough below the
 * head, and indexed; undefined while the chain or the indexer does not answer.
 */
function confirmableUpTo(
  head: bigint | undefined,
  indexed: bigint | null | undefined,
  options: SyncCheckOptions,
): bigint | undefined {
  if (head === undefined) return undefined;
  const deep = head - BigInt(options.confirmationDepth);
  if (!options.indexer) return deep;
  if (indexed === undefined || indexed === null) return undefined;
  return indexed < deep ? indexed : deep;
}

export function syncCheck(options: SyncCheckOptions): ReadinessCheck {
  let troubleSince: number | undefined;
  /** The lowest mined block the relayer could confirm, and since when it has stayed so. */
  let unconfirmed: { block: bigint; since: number } | undefined;
  return {
    name: "sync",
    critical: true,
    async check() {
      const [head, indexed, backlog, holdersAt, lowestMined] = await Promise.all([
        within(options.chain.blockNumber()),
        options.indexer ? within(options.indexer.indexedBlock()) : Promise.resolve(undefined),
        pendingBacklog(options.db),
        options.indexer ? transfersFollowedTo(options.db) : Promise.resolve(undefined),
        minedPendingBlock(options.db, "lowest"),
      ]);
      const confirmable = confirmableUpTo(head, indexed, options);
      if (lowestMined === null || confirmable === undefined || lowestMined > confirmable) {
        unconfirmed = undefined;
      } else if (unconfirmed?.block !== lowestMined) {
        unconfirmed = { block: lowestMined, since: Date.now() };
      }
      const oldest = backlog.oldest
        ? Math.round((Date.now() - backlog.oldest.getTime()) / 1000)
        : 0;
      const summary =
        `chain head ${head ?? "unknown"}, indexed ${options.indexer ? (indexed ?? "unknown") : "n/a"}, ` +
        (holdersAt === undefined ? "" : `holders followed to ${holdersAt}, `) +
        `relayer backlog ${backlog.count} (oldest ${oldest} s)`;
      let trouble: string | undefined;
      if (head === undefined) trouble = "the chain does not answer";
      else if (options.indexer && (indexed === undefined || indexed === null)) {
        trouble = "the indexer does not answer";
      } else if (options.indexer && head - (indexed ?? head) > BigInt(options.maxLagBlocks)) {
        trouble = `the indexer is ${head - (indexed ?? head)} blocks behind the chain`;
      }
      const stalledMs = unconfirmed ? Date.now() - unconfirmed.since : 0;
      if (unconfirmed && stalledMs > options.graceMs) {
        throw new Error(
          `objects mined in block ${unconfirmed.block}, which the indexer has, still pending ` +
            `after ${Math.round(stalledMs / 1000)} s: confirmations have stopped (is the ` +
            `indexer following this contract?): ${summary}`,
        );
      }
      if (!trouble) {
        troubleSince = undefined;
        return summary;
      }
      troubleSince ??= Date.now();
      const lasting = Date.now() - troubleSince;
      if (lasting < options.graceMs)
        return `${summary}; ${trouble} for ${Math.round(lasting / 1000)} s`;
      throw new Error(`${trouble} for ${Math.round(lasting / 1000)} s: ${summary}`);
    },
  };
}
