/**
 * `pnpm deploy:local` / `pnpm deploy`: deploys Collectibles with Ignition and writes
 * deployments/<chainId>.json. Run through Hardhat so it gets the network and the keystore:
 *
 *   hardhat run --network localhost scripts/deploy.ts
 *   hardhat run --network live scripts/deploy.ts       (RPC_URL, CHAIN_ID, DEPLOYER_PRIVATE_KEY)
 *
 * Options from the environment: ADMIN_ADDRESS, MINTER_ADDRESS, ADMIN_DELAY_SECONDS, HOOK_GAS_BUDGET,
 * IGNITION_DEPLOYMENT_ID, DEPLOYMENTS_DIR, HARDHAT_IGNITION_CONFIRM_DEPLOYMENT.
 */
import hre from "hardhat";
import { DeployError, deployOptionsFromEnv, deployWithIgnition } from "./deployWithIgnition.ts";

try {
  await deployWithIgnition(hre, deployOptionsFromEnv());
} catch (error) {
  if (!(error instanceof DeployError)) throw error;
  console.error(`\n${error.message}`);
  process.exitCode = 1;
}
