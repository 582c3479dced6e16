import { collectiblesAbi } from "@collectibles/contracts";
import { getDeployment } from "@collectibles/deploy";
import { createConfig } from "ponder";
import { deploymentBlockHash, forgetOtherChainInstances } from "./lib/chainInstance.ts";
import { indexerEnv } from "./lib/indexerEnv.ts";

const env = indexerEnv();
const deployment = getDeployment(env.chainId);
const blockHash = await deploymentBlockHash(env.rpcUrl, deployment);

// Hardhat's local node keeps its chain in memory: a restarted node is a different chain with the
// same id and the same contract address, so nothing fetched from it may be reused from a cache,
// and nothing indexed from the node before it may be kept.
const isLocalChain = env.chainId === 31337;
if (isLocalChain) await forgetOtherChainInstances(env.databaseUrl, env.chainId, blockHash);

export default createConfig({
  database: { kind: "postgres", connectionString: env.databaseUrl },
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
