import { fileURLToPath } from "node:url";
import { collectiblesAbi } from "@collectibles/contracts";
import { getDeployment } from "@collectibles/deploy";
import { createConfig } from "ponder";
import { deploymentBlockHash } from "./lib/chainInstance.ts";
import { indexerEnv } from "./lib/indexerEnv.ts";

const env = indexerEnv();
const deployment = getDeployment(env.chainId);
// PGlite keeps one folder per deployment on one chain instance: a fresh Hardhat node (same chain
// id, address and block numbers) starts from empty tables instead of yesterday's rows.
const instance = `${env.chainId}-${(await deploymentBlockHash(env.rpcUrl, deployment)).slice(2, 14)}`;

// Hardhat's local node keeps its chain in memory: a restarted node is a different chain with the
// same id and the same contract address, so nothing fetched from it may be reused from a cache.
const isLocalChain = env.chainId === 31337;

export default createConfig({
  // No DATABASE_URL: embedded PGlite in INDEXER_DATA_DIR. With DATABASE_URL, Ponder itself picks
  // PostgreSQL (it reads DATABASE_PRIVATE_URL or DATABASE_URL), so no `database` block is given.
  database: env.databaseUrl
    ? undefined
    : { kind: "pglite", directory: fileURLToPath(new URL(`${instance}/pglite`, env.dataDir)) },
  chains: {
    chain: {
      id: env.chainId,
      rpc: env.rpcUrl,
      pollingInterval: env.pollingIntervalMs,
      disableCache: isLocalChain,
    },
  },
  contracts: {
    Collectibles: {
      chain: "chain",
      abi: collectiblesAbi,
      address: deployment.address,
      startBlock: deployment.deployBlock,
    },
  },
});
