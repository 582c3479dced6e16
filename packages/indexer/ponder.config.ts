import { collectiblesAbi } from "@collectibles/contracts";
import { getDeployment } from "@collectibles/deploy";
import { createConfig } from "ponder";
import { deploymentBlockHash, forgetOtherChainInstances } from "./lib/chainInstance.ts";
import { indexerEnv } from "./lib/indexerEnv.ts";

const env = indexerEnv();
const deployment = getDeployment(env.chainId);
const blockHash = await deploymentBlockHash(env.rpcUrl, deployment);

// The local chain (anvil, chain id 31337) keeps its state in a file between runs, but a new one
// (`pnpm start --fresh`, a deleted data folder, `pnpm chain` without CHAIN_STATE) has the same id
// and contract address as the last: nothing fetched from it may be reused from Ponder's cache,
// and what was indexed from another instance (another deployment block hash) is dropped.
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
