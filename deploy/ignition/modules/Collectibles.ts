import { DEFAULT_HOOK_GAS_BUDGET } from "@collectibles/contracts";
import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

/** Two days: how long a default-admin transfer waits on a real chain (README, "Real chain"). */
export const REAL_CHAIN_ADMIN_DELAY = 2n * 24n * 60n * 60n;

/**
 * Deploys Collectibles(adminDelay, admin, minter, hookGasBudget).
 *
 * Parameters (module id `CollectiblesModule`):
 * - `admin`: default admin, who grants and revokes the minter role. Default: the deployer
 *   (account #0 of the network).
 * - `minter`: the account allowed to create collectibles and mint claims, i.e. the API's relayer.
 *   Default: the deployer.
 * - `adminDelay`: seconds a default-admin transfer must wait (OpenZeppelin
 *   AccessControlDefaultAdminRules). Default: two days, the safe value for a real chain;
 *   `pnpm deploy:local` passes 0.
 * - `hookGasBudget`: gas a receiver contract's `onERC1155Received` gets on a mint (10,000 to
 *   1,000,000; fixed for the contract's life). Default: 50,000 (`DEFAULT_HOOK_GAS_BUDGET`), well
 *   above what a proxied smart-contract wallet needs to accept, and what one receiver can cost a
 *   batch beyond its own mint.
 */
export default buildModule("CollectiblesModule", (m) => {
  const deployer = m.getAccount(0);
  const admin = m.getParameter("admin", deployer);
  const minter = m.getParameter("minter", deployer);
  const adminDelay = m.getParameter("adminDelay", REAL_CHAIN_ADMIN_DELAY);
  const hookGasBudget = m.getParameter("hookGasBudget", DEFAULT_HOOK_GAS_BUDGET);

  const collectibles = m.contract("Collectibles", [adminDelay, admin, minter, hookGasBudget]);
  return { collectibles };
});
