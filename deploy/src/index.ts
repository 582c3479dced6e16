import { existsSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
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

/**
 * Folder holding one `<chainId>.json` per chain: `deploy/deployments/`, or `DEPLOYMENTS_DIR` when
 * set (tests and side-by-side stacks use their own folder so they never overwrite yours).
 */
export function deploymentsDir(): URL {
  const override = process.env.DEPLOYMENTS_DIR;
  if (override) return pathToFileURL(`${override.replace(/\/+$/, "")}/`);
  return new URL("../deployments/", import.meta.url);
}

export function deploymentFile(chainId: number, dir: URL = deploymentsDir()): URL {
  return new URL(`${chainId}.json`, dir);
}

/** The deployment on `chainId`, or an error naming the command that creates it. */
export function getDeployment(chainId: number, dir: URL = deploymentsDir()): Deployment {
  const file = deploymentFile(chainId, dir);
  if (!existsSync(file)) {
    throw new Error(
      `No Collectibles deployment for chain ${chainId} (${file.pathname}). Deploy first: ` +
        (chainId === 31337 ? "pnpm deploy:local" : "see README, 'Deploying to a real chain'"),
    );
  }
  return JSON.parse(readFileSync(file, "utf8")) as Deployment;
}
