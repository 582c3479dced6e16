/** What a relayer is built with (`RelayerOptions`) and what it reports (`RelayerStatus`). */
import type { IndexerReader } from "@collectibles/indexer/reader";
import type { DatabaseHandle } from "../db/driver/client.ts";
import type { ReorgSeen } from "../deps.ts";
import type { Logger } from "../logger.ts";
import type { AuditOptions } from "./chainAudit.ts";
import type { ChainClient } from "./chainClient.ts";
import type { StuckTransaction } from "./contractCalls.ts";
import type { ServiceWallets } from "./homeSender.ts";
import type { RelayerContext } from "./relayerContext.ts";

export interface RelayerOptions {
  database: Pick<DatabaseHandle, "db" | "tryLock">;
  chain: ChainClient;
  /** When absent, a mined row is confirmed at once. */
  indexer?: IndexerReader;
  logger: Logger;
  batchSize: number;
  maxInFlight: number;
  /** Told whenever rows change state, so that waiting requests look at once. */
  statusWaiter: RelayerContext["statusWaiter"];
  /** Checked before the first send; without it the relayer trusts the chain. */
  audit?: AuditOptions;
  /** Blocks below the head that are final on a chain without a `finalized` tag. */
  finalityDepth: number;
  /** Blocks on top of a mined row's block before it is confirmed (0: confirmed once indexed). */
  confirmationDepth: number;
  /** Signs for users' service wallets: moves tokens home (homeSender.ts); absent: none. */
  home?: ServiceWallets;
}

export interface RelayerStatus {
  lockHeld: boolean;
  lastError: string | null;
  /** Since when every round has failed (ms since the epoch); null while rounds succeed. */
  failingSince: number | null;
  /** Transactions unmined past the replacement delay although they offer the fee cap. */
  stuckAtFeeCap: StuckTransaction[];
  /** Why the relayer refuses to send on this chain (see chainAudit.ts), until a restart. */
  chainProblem: string | null;
  /**
   * Objects recorded as mined are still to be checked against the chain (after an unclean
   * stop): until then a `confirmed` this process serves may be one the chain lost.
   */
  auditPending: boolean;
  /** The last reorg that took back mined objects, since this process started. */
  lastReorg: ReorgSeen | null;
}
