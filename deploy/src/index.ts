import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
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
      `No Collectibles deployment for chain ${chainId} (${fileURLToPath(file)}). Deploy first: ` +
        (chainId === 31337 ? "pnpm deploy:local" : "see deploy/README.md, 'Real chain'"),
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${fileURLToPath(file)} is not valid JSON: ${(error as Error).message}`);
  }
  const problem = deploymentProblem(parsed, chainId);
  if (problem)
    throw new Error(`${fileURLToPath(file)} is not a Collectibles deployment: ${problem}`);
  return parsed as Deployment;
}

/**
 * Writes `<dir>/<chainId>.json`: the one place a deployment is recorded, used by the Ignition
 * deploy script and by the test helper. Written to a temporary file then renamed, so a process
 * reading it at the same moment sees the old file or the new one, never half of one.
 */
export function writeDeployment(deployment: Deployment, dir: URL = deploymentsDir()): URL {
  const problem = deploymentProblem(deployment, deployment.chainId);
  if (problem) throw new Error(`Refusing to write an invalid deployment: ${problem}`);
  const file = deploymentFile(deployment.chainId, dir);
  mkdirSync(dir, { recursive: true });
  const ordered: Deployment = {
    chainId: deployment.chainId,
    contract: deployment.contract,
    address: deployment.address,
    deployBlock: deployment.deployBlock,
    deployTransaction: deployment.deployTransaction,
  };
  const temporary = new URL(`${deployment.chainId}.json.${process.pid}.tmp`, dir);
  writeFileSync(temporary, `${JSON.stringify(ordered, null, 2)}\n`);
  renameSync(temporary, file);
  return file;
}

/** What is wrong with `value` as the deployment for `chainId`, or undefined when nothing is. */
function deploymentProblem(value: unknown, chainId: number): string | undefined {
  if (typeof value !== "object" || value === null) return "not an object";
  const d = value as Record<string, unknown>;
  if (d.chainId !== chainId) return `chainId is ${String(d.chainId)}, expected ${chainId}`;
  if (d.contract !== "Collectibles")
    return `contract is ${String(d.contract)}, expected Collectibles`;
  if (typeof d.address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(d.address)) {
    return "address is not a 20-byte hex address";
  }
  if (!Number.isSafeInteger(d.deployBlock) || (d.deployBlock as number) < 0) {
    return "deployBlock is not a block number";
  }
  if (typeof d.deployTransaction !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(d.deployTransaction)) {
    return "deployTransaction is not a 32-byte hex hash";
  }
  return undefined;
}
