import { createRequire } from "node:module";
import hardhatToolboxViemPlugin from "@nomicfoundation/hardhat-toolbox-viem";
import { defineConfig } from "hardhat/config";
import testReport from "./plugins/testReport.ts";
import warningsAsErrors from "./plugins/warningsAsErrors.ts";

const require = createRequire(import.meta.url);

/**
 * Compiler settings shared by every build profile and by the verification test, which recompiles
 * the sources from the same standard-JSON input an explorer receives.
 */
export const SOLC_VERSION = "0.8.37";
export const SOLC_SETTINGS = {
  // Cancun is supported by every chain we target (Ethereum, Gnosis, Polygon, Base, Optimism,
  // Arbitrum); newer defaults would emit opcodes some of them reject.
  evmVersion: "cancun",
  optimizer: { enabled: true, runs: 200 },
} as const;

// The compiler comes from the npm `solc` package, so Hardhat never downloads one.
const solc = {
  version: SOLC_VERSION,
  path: require.resolve("solc/soljson.js"),
  settings: SOLC_SETTINGS,
};

export default defineConfig({
  // Compiler warnings are errors: any warning, in contracts or tests, fails the build.
  // `--test-report <file>` writes the test runners' counts as JSON for `pnpm test`.
  plugins: [hardhatToolboxViemPlugin, warningsAsErrors, testReport],
  solidity: {
    profiles: {
      default: solc,
      production: solc,
    },
  },
  networks: {
    // `hardhat node` serves this one on http://127.0.0.1:8545, chain id 31337.
    node: { type: "edr-simulated", chainType: "l1", chainId: 31337 },
  },
});
