import { existsSync, readFileSync } from "node:fs";
import type { Address, Hash } from "viem";

/** Where the Collectibles contract lives on one chain: what every other package reads. */
export interface Deployment {
  chainId: number;
  /** Contract name in @collectibles/contracts (its ABI is `collectiblesAbi` there). */
  contract: "Collectibles";
  address: Address;
  /** Block of the deployment transaction: indexers start here. */
  deployBlock: number;
  deployTransaction: Hash;
}

/** Folder holding one `<chainId>.json` per chain. */
export const deploymentsDir = new URL("../deployments/", import.meta.url);

export function deploymentFile(chainId: number): URL {
  return new URL(`${chainId}.json`, deploymentsDir);
}

/** The deployment on `chainId`, or an error naming the command that creates it. */
export function getDeployment(chainId: number): Deployment {
  const file = deploymentFile(chainId);
  if (!existsSync(file)) {
    throw new Error(
      `No Collectibles deployment for chain ${chainId} (${file.pathname}). Deploy first: ` +
        (chainId === 31337 ? "pnpm deploy:local" : "see README, 'Deploying to a real chain'"),
    );
  }
  return JSON.parse(readFileSync(file, "utf8")) as Deployment;
}
