/** What `createApp` is built from. Tests and `index.ts` assemble these; nothing here is global. */

import type { IndexerReader } from "@collectibles/indexer/reader";
import type { RequestHandler } from "express";
import type { LimitFunction } from "p-limit";
import type { Address, PublicClient } from "viem";
import type { Database } from "./db/driver/client.ts";
import type { IntentKind } from "./db/intentStatuses.ts";
import type { ChainStatus } from "./db/schema.ts";
import type { Env } from "./env.ts";
import type { ImageStorage } from "./images/imageStorage.ts";
import type { Logger } from "./logger.ts";
import type { Wallets } from "./wallets/wallets.ts";

/**
 * A dependency `/ready` checks. `critical` ones (the database) make the API unready (503); the
 * others (chain, indexer) only mark it degraded, since reads keep working without them.
 */
export interface ReadinessCheck {
  name: string;
  critical: boolean;
  /** Resolves when reachable (with what to report, if anything); rejects when not. */
  check(): Promise<unknown>;
}

/** The chain side: present when RPC_URL is configured. */
/** The last reorg that took back mined objects of this service (chain/finality.ts). */
export interface ReorgSeen {
  /** The lowest replaced block that held a row. */
  fromBlock: bigint;
  /** Blocks replaced, at least (from `fromBlock` to the head when it was seen). */
  depth: number;
  /** Collectibles and claims taken back. */
  objects: number;
  at: Date;
}

/**
 * What requests ask of the chain client (chain/chainClient.ts makes it): the contract, the head,
 * the fee cap and the transactions in flight (for /metrics), and signature checks through the
 * chain (contract wallets, ERC-1271/6492).
 */
export interface ChainAccess {
  contract: Address;
  blockNumber(): Promise<bigint>;
  maxFeePerGas?: bigint;
  transactionsInFlight?(): number;
  highestFeeInFlight?(): bigint;
  reader: Pick<PublicClient, "verifyMessage">;
}

/** POST's bounded wait for a stored intent to become final (services/statusWaiter.ts). */
export interface StatusWaiter {
  /** Resolves with the row's status once final, or `pending` after `timeoutMs`. */
  waitForFinal(kind: IntentKind, id: string, timeoutMs: number): Promise<ChainStatus>;
  /** Statuses changed: look now instead of at the next poll. */
  statusesChanged(): void;
  stop(): void;
}

export interface ChainServices {
  client: ChainAccess;
  /** Wakes the relayer after an intent is stored (it also polls on its own). */
  wakeRelayer(): void;
  /** POST's bounded wait for a stored intent to become final. */
  statusWaiter: StatusWaiter;
  /** Where counts and holders are read; absent: the API's own records answer. */
  indexer?: IndexerReader;
  /** The last reorg this process's relayer saw take back mined objects, if any. */
  lastReorg(): ReorgSeen | null;
}

export interface AppDeps {
  config: Env;
  db: Database;
  logger: Logger;
  storage: ImageStorage;
  wallets: Wallets;
  /**
   * Where clients reach this API, for links in answers (image URLs): PUBLIC_URL, or the address
   * the server listens on. Never a request's Host header, which the client chooses.
   */
  baseUrl(): string;
  /** Checked by `/ready` in order; the database check comes first. */
  readiness: ReadinessCheck[];
  /** Absent: collectibles and claims can be read but not created (503). */
  chain?: ChainServices;
  /**
   * Told, after every answer, what about it the OpenAPI document does not describe (an empty
   * list when nothing). Tests fail on any; production leaves it out.
   */
  auditResponse?: (problems: string[]) => void;
}

/** GET /metrics and what it counts (`metrics.ts`). */
export interface MetricsService {
  /** Counts and times every request, by the endpoint that answered it. */
  observe: RequestHandler;
  contentType: string;
  /** The Prometheus text of every series, gauges read now. */
  scrape(): Promise<string>;
}

/** What the routers get: the app's dependencies and what `createApp` makes for them. */
export interface RouteDeps extends AppDeps {
  /** Runs claim transactions, a few at once, the others waiting in arrival order (`app.ts`). */
  claimTransactions: LimitFunction;
  /** The OpenAPI document of every mounted endpoint (built once, on first use). */
  openApiDocument(): Record<string, unknown>;
  metrics: MetricsService;
}
