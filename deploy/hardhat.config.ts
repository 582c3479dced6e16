/**
 * Hardhat project that deploys the Collectibles contract of @collectibles/contracts.
 *
 * Hardhat 3 only compiles sources inside its own project, so this one builds the contract as an
 * npm dependency (`npmFilesToBuild`) with the contracts package's exact compiler settings; the
 * bytecode and the standard-JSON input an explorer receives both come from deploy/artifacts.
 *
 * Everything secret or chain-specific comes from the environment or Hardhat's keystore and is
 * read only when a command needs it (see README.md):
 *   RPC_URL, CHAIN_ID, DEPLOYER_PRIVATE_KEY          the `live` network
 *   ETHERSCAN_API_KEY, ETHERSCAN_URL, ETHERSCAN_API_URL   Etherscan-compatible explorers
 *   BLOCKSCOUT_URL, BLOCKSCOUT_API_URL, BLOCKSCOUT_API_KEY Blockscout
 *   SOURCIFY_API_URL                                 a self-hosted Sourcify
 *   LOCAL_RPC_URL                                    the `localhost` network (default :8545)
 */
import { createRequire } from "node:module";
import contractsConfig, {
  SOLC_SETTINGS,
  SOLC_VERSION,
} from "@collectibles/contracts/hardhat.config";
import { configVariable, defineConfig } from "hardhat/config";
import type {
  BlockExplorersUserConfig,
  ChainDescriptorsUserConfig,
  HttpNetworkUserConfig,
} from "hardhat/types/config";

const require = createRequire(import.meta.url);
const env = process.env;

/** `CHAIN_ID` as a number, or undefined when unset; a value that is not one stops every command. */
function chainIdFromEnv(): number | undefined {
  const raw = env.CHAIN_ID?.trim();
  if (!raw) return undefined;
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new Error(`CHAIN_ID must be a positive integer chain id, got "${raw}"`);
  }
  return id;
}

const liveChainId = chainIdFromEnv();

// The compiler is the npm `solc` package (never a download), with the contracts' settings.
const solc = {
  version: SOLC_VERSION,
  path: require.resolve("solc/soljson.js"),
  settings: SOLC_SETTINGS,
};

const live: HttpNetworkUserConfig = {
  type: "http",
  // Resolved only when `--network live` is used: from the environment first, then the keystore.
  url: configVariable("RPC_URL"),
  accounts: [configVariable("DEPLOYER_PRIVATE_KEY")],
  ...(liveChainId === undefined ? {} : { chainId: liveChainId }),
};

/**
 * Explorers for a chain Hardhat does not know, or a different explorer for one it knows:
 * ETHERSCAN_URL (+ ETHERSCAN_API_URL, default Etherscan's multichain v2 API) and BLOCKSCOUT_URL
 * (+ BLOCKSCOUT_API_URL, default `<BLOCKSCOUT_URL>/api`). Known chains need neither.
 */
function explorers(): BlockExplorersUserConfig | undefined {
  const found: BlockExplorersUserConfig = {};
  if (env.ETHERSCAN_URL) {
    found.etherscan = {
      url: env.ETHERSCAN_URL,
      ...(env.ETHERSCAN_API_URL ? { apiUrl: env.ETHERSCAN_API_URL } : {}),
    };
  }
  if (env.BLOCKSCOUT_URL) {
    const url = env.BLOCKSCOUT_URL.replace(/\/+$/, "");
    found.blockscout = { url, apiUrl: env.BLOCKSCOUT_API_URL || `${url}/api` };
  }
  return found.etherscan || found.blockscout ? found : undefined;
}

const blockExplorers = explorers();
if (blockExplorers && liveChainId === undefined) {
  throw new Error(
    "ETHERSCAN_URL / BLOCKSCOUT_URL describe the explorer of CHAIN_ID: set CHAIN_ID too",
  );
}
const chainDescriptors: ChainDescriptorsUserConfig =
  blockExplorers && liveChainId !== undefined
    ? { [liveChainId]: { name: env.CHAIN_NAME || `chain ${liveChainId}`, blockExplorers } }
    : {};

export default defineConfig({
  ...contractsConfig,
  solidity: {
    profiles: { default: solc, production: solc },
    npmFilesToBuild: ["@collectibles/contracts/contracts/Collectibles.sol"],
  },
  networks: {
    ...contractsConfig.networks,
    // The local chain: anvil from npm (`@collectibles/devkit`), which `pnpm start` and `pnpm chain`
    // run on CHAIN_PORT (8545), its state kept in a file between runs.
    localhost: {
      type: "http",
      url: env.LOCAL_RPC_URL || "http://127.0.0.1:8545",
      chainId: 31337,
    },
    live,
  },
  chainDescriptors,
  verify: {
    // Etherscan's v2 API takes one key for every chain it serves.
    etherscan: { apiKey: configVariable("ETHERSCAN_API_KEY") },
    blockscout: {
      enabled: true,
      ...(env.BLOCKSCOUT_API_KEY ? { apiKey: configVariable("BLOCKSCOUT_API_KEY") } : {}),
    },
    // Sourcify's public server unless SOURCIFY_API_URL names a self-hosted one.
    sourcify: { enabled: true, ...(env.SOURCIFY_API_URL ? { apiUrl: env.SOURCIFY_API_URL } : {}) },
  },
});
