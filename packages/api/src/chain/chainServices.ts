/**
 * Assembles the chain side of the API from the configuration: the chain client (contract address
 * from the deployment file), the indexer reader, the relayer worker and the status waiter,
 * plus their `/ready` checks: chain and indexer optional (when they are down the API is degraded,
 * not down), the relayer critical (a transaction stuck at the fee cap stops every confirmation).
 */
import { pathToFileURL } from "node:url";
import { getDeployment } from "@collectibles/deploy";
import { createIndexerReader } from "@collectibles/indexer/reader";
import { parseGwei } from "viem";
import type { DatabaseHandle } from "../db/driver/client.ts";
import type { ChainServices, ReadinessCheck } from "../deps.ts";
import { type Env, relayerKeyOf } from "../env.ts";
import type { Logger } from "../logger.ts";
import { createStatusWaiter } from "../services/statusWaiter.ts";
import { type ChainClient, createChainClient } from "./chainClient.ts";
import { finalityCheck } from "./finality.ts";
import type { ServiceWallets } from "./homeSender.ts";
import { Relayer } from "./relayer.ts";
import { syncCheck } from "./syncCheck.ts";
import { startTransferFollower } from "./transferFollower.ts";

export interface RunningChainServices {
  services: ChainServices;
  client: ChainClient;
  relayer: Relayer;
  readiness: ReadinessCheck[];
  stop(): Promise<void>;
}

export function startChainServices(
  env: Env,
  database: Pick<DatabaseHandle, "db" | "tryLock">,
  logger: Logger,
  wallets?: ServiceWallets,
): RunningChainServices {
  if (!env.RPC_URL) throw new Error("RPC_URL is not set");
  const dir = env.DEPLOYMENTS_DIR
    ? pathToFileURL(`${env.DEPLOYMENTS_DIR.replace(/\/+$/, "")}/`)
    : undefined;
  const deployment = getDeployment(env.CHAIN_ID, dir);
  const chainOptions = {
    rpcUrl: env.RPC_URL,
    chainId: env.CHAIN_ID,
    contract: deployment.address,
    privateKey: relayerKeyOf(env),
    replaceAfterMs: env.TX_REPLACE_AFTER_MS,
    maxFeePerGas: parseGwei(env.MAX_FEE_PER_GAS_GWEI),
  };
  const client = createChainClient(chainOptions);
  const indexer = env.INDEXER_URL
    ? createIndexerReader({ url: env.INDEXER_URL, chainId: env.CHAIN_ID, timeoutMs: 3_000 })
    : undefined;
  const statusWaiter = createStatusWaiter(database.db);
  const relayer = new Relayer({
    database,
    chain: client,
    indexer,
    logger,
    batchSize: env.RELAYER_BATCH_SIZE,
    maxInFlight: env.RELAYER_MAX_IN_FLIGHT,
    statusWaiter,
    audit: {
      deployment,
      objects: env.CHAIN_AUDIT,
      // Only the local development chain is repaired by sending again.
      repair: env.CHAIN_ID === 31_337,
    },
    finalityDepth: env.FINALITY_DEPTH,
    confirmationDepth: env.CONFIRMATION_DEPTH,
    home: wallets,
  });
  relayer.start();
  const transferFollower = indexer
    ? startTransferFollower({
        database,
        indexer,
        chain: client,
        finalityDepth: env.FINALITY_DEPTH,
        logger,
      })
    : undefined;
  const readiness: ReadinessCheck[] = [
    { name: "chain", critical: false, check: () => client.ping() },
    {
      // Critical: claims and creations stop confirming until an operator raises the cap.
      name: "relayer",
      critical: true,
      check: async () => {
        const { chainProblem, stuckAtFeeCap, auditPending, lastError, failingSince } =
          relayer.status();
        if (chainProblem) throw new Error(chainProblem);
        const failingFor = failingSince === null ? 0 : Date.now() - failingSince;
        if (failingFor > env.READY_LAG_GRACE_SECONDS * 1000) {
          throw new Error(`sends failing for ${Math.round(failingFor / 1000)} s: ${lastError}`);
        }
        if (auditPending) {
          throw new Error("checking the objects recorded as mined against the chain (CHAIN_AUDIT)");
        }
        const [oldest, ...others] = stuckAtFeeCap;
        if (!oldest) return;
        const seconds = Math.round((Date.now() - oldest.since) / 1000);
        const more = others.length > 0 ? ` (and ${others.length} more)` : "";
        throw new Error(
          `transaction ${oldest.hash} (nonce ${oldest.nonce}) stuck at the fee cap ` +
            `MAX_FEE_PER_GAS_GWEI=${env.MAX_FEE_PER_GAS_GWEI} for ${seconds} s${more}`,
        );
      },
    },
  ];
  readiness.push(
    finalityCheck(database.db, () => relayer.status().lastReorg),
    syncCheck({
      chain: client,
      indexer,
      db: database.db,
      maxLagBlocks: env.READY_MAX_LAG_BLOCKS,
      graceMs: env.READY_LAG_GRACE_SECONDS * 1000,
      confirmationDepth: env.CONFIRMATION_DEPTH,
    }),
  );
  if (indexer) {
    readiness.push({
      name: "indexer",
      critical: false,
      check: async () => {
        if (!(await indexer.isReady()))
          throw new Error(`indexer at ${env.INDEXER_URL} is not ready`);
      },
    });
  }
  return {
    services: {
      client,
      wakeRelayer: () => relayer.poke(),
      lastReorg: () => relayer.status().lastReorg,
      statusWaiter,
      indexer,
    },
    client,
    relayer,
    readiness,
    async stop() {
      statusWaiter.stop();
      await transferFollower?.stop();
      await relayer.stop();
    },
  };
}
