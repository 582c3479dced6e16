import path from "node:path";
import { HardhatArtifactResolver } from "@nomicfoundation/hardhat-ignition/helpers";
import { listTransactions } from "@nomicfoundation/ignition-core";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { type Address, getAddress, type Hash, isAddress } from "viem";
import { type Deployment, deploymentsDir, writeDeployment } from "../src/index.ts";

/** A failure the user can fix; the script prints its message alone, without a stack. */
export class DeployError extends Error {
  override name = "DeployError";
}

export interface DeployOptions {
  /** Default admin; default: the deployer. */
  admin?: Address;
  /** Minter (the API's relayer); default: the deployer. */
  minter?: Address;
  /** Seconds a default-admin transfer waits; default 0 on chain 31337, two days elsewhere. */
  adminDelay?: bigint;
  /** Gas a receiver's hook gets on a mint; default the module's (50,000). */
  hookGasBudget?: bigint;
  /** Ignition deployment id (journal folder); default `chain-<chainId>`. */
  deploymentId?: string;
  /** Folder for `<chainId>.json`; default deploymentsDir() (honours DEPLOYMENTS_DIR). */
  deploymentsDir?: URL;
  /** Whether someone can answer Ignition's confirmation prompt; default: stdin is a terminal. */
  interactive?: boolean;
  log?: (line: string) => void;
}

const MODULE_ID = "CollectiblesModule";
const FUTURE_ID = `${MODULE_ID}#Collectibles`;

/** Reads the deploy options from the environment; a malformed value is an error naming it. */
export function deployOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): DeployOptions {
  const address = (name: string): Address | undefined => {
    const value = env[name]?.trim();
    if (!value) return undefined;
    if (!isAddress(value, { strict: false })) {
      throw new DeployError(`${name} must be a 0x-prefixed 20-byte address, got "${value}"`);
    }
    return getAddress(value);
  };
  const delay = env.ADMIN_DELAY_SECONDS?.trim();
  if (delay && !/^\d+$/.test(delay)) {
    throw new DeployError(`ADMIN_DELAY_SECONDS must be a whole number of seconds, got "${delay}"`);
  }
  const budget = env.HOOK_GAS_BUDGET?.trim();
  if (budget && !/^\d+$/.test(budget)) {
    throw new DeployError(`HOOK_GAS_BUDGET must be a whole amount of gas, got "${budget}"`);
  }
  return {
    admin: address("ADMIN_ADDRESS"),
    minter: address("MINTER_ADDRESS"),
    adminDelay: delay ? BigInt(delay) : undefined,
    hookGasBudget: budget ? BigInt(budget) : undefined,
    deploymentId: env.IGNITION_DEPLOYMENT_ID?.trim() || undefined,
  };
}

/** Host of an RPC URL: enough to recognise it, never the API key many providers put in the path. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(unparseable URL)";
  }
}

async function reachableChainId(url: string, networkName: string): Promise<number> {
  const hint =
    networkName === "localhost"
      ? "Start the local chain first: `pnpm chain` (in another terminal)."
      : "Check RPC_URL and that the node is up.";
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new DeployError(
      `Cannot reach the chain of network "${networkName}" at ${hostOf(url)} (${cause}). ${hint}`,
    );
  }
  const body = (await response.json().catch(() => ({}))) as { result?: string };
  if (!response.ok || typeof body.result !== "string") {
    throw new DeployError(
      `The chain of network "${networkName}" at ${hostOf(url)} did not answer eth_chainId ` +
        `(HTTP ${response.status}). ${hint}`,
    );
  }
  return Number(body.result);
}

/**
 * Deploys Collectibles with the Ignition module on the network Hardhat was started with
 * (`--network localhost` or `--network live`), then writes `deployments/<chainId>.json`.
 *
 * Ignition's own `ignition deploy` task does the work, so its behaviour holds: it shows progress,
 * resumes an interrupted deployment from its journal, redeploys when a local node (31337) was
 * restarted, and on any other chain asks for confirmation unless
 * HARDHAT_IGNITION_CONFIRM_DEPLOYMENT is set.
 */
export async function deployWithIgnition(
  hre: HardhatRuntimeEnvironment,
  options: DeployOptions = {},
): Promise<Deployment> {
  const log = options.log ?? console.log;
  const networkName = hre.globalOptions.network;
  const networkConfig = networkName === undefined ? undefined : hre.config.networks[networkName];
  if (networkName === undefined || networkConfig === undefined || networkConfig.type !== "http") {
    throw new DeployError(
      `Choose a chain to deploy to: --network localhost (the node of \`pnpm chain\`) or ` +
        `--network live (RPC_URL, CHAIN_ID, DEPLOYER_PRIVATE_KEY); got ${networkName ?? "none"}.`,
    );
  }
  if (networkName === "live" && networkConfig.chainId === undefined) {
    throw new DeployError(
      "Set CHAIN_ID to the id of the chain RPC_URL serves (a guard against deploying to the wrong one).",
    );
  }

  const url = await networkConfig.url.get();
  log(`Connecting to network "${networkName}" at ${hostOf(url)}...`);
  const chainId = await reachableChainId(url, networkName);
  if (networkConfig.chainId !== undefined && networkConfig.chainId !== chainId) {
    throw new DeployError(
      `Network "${networkName}" is configured for chain ${networkConfig.chainId} but ${hostOf(url)} serves chain ${chainId}.`,
    );
  }

  if (
    chainId !== 31337 &&
    process.env.HARDHAT_IGNITION_CONFIRM_DEPLOYMENT === undefined &&
    !(options.interactive ?? process.stdin.isTTY)
  ) {
    // Ignition would wait for an answer no one can type (and Node end it with exit code 13).
    throw new DeployError(
      `Deploying to chain ${chainId} needs a confirmation: run in a terminal to answer Ignition's ` +
        "prompt, or set HARDHAT_IGNITION_CONFIRM_DEPLOYMENT=1. Nothing was sent.",
    );
  }

  const connection = await hre.network.create();
  try {
    const publicClient = await connection.viem.getPublicClient();
    const [deployer] = await connection.viem.getWalletClients();
    if (deployer === undefined) {
      throw new DeployError(
        `Network "${networkName}" has no account to deploy from (DEPLOYER_PRIVATE_KEY).`,
      );
    }
    const adminDelay = options.adminDelay ?? (chainId === 31337 ? 0n : undefined);
    const parameters: Record<string, string | number> = {};
    if (options.admin) parameters.admin = options.admin;
    if (options.minter) parameters.minter = options.minter;
    if (adminDelay !== undefined) parameters.adminDelay = Number(adminDelay);
    if (options.hookGasBudget !== undefined)
      parameters.hookGasBudget = Number(options.hookGasBudget);

    log(
      `Deploying Collectibles to chain ${chainId} from ${deployer.account.address}: ` +
        `admin ${options.admin ?? "deployer"}, minter ${options.minter ?? "deployer"}, ` +
        `admin delay ${adminDelay ?? "2 days (module default)"}${adminDelay === undefined ? "" : " s"}, ` +
        `hook gas budget ${options.hookGasBudget ?? "50000 (module default)"}`,
    );

    const deploymentId = options.deploymentId ?? `chain-${chainId}`;
    const result = (await hre.tasks.getTask(["ignition", "deploy"]).run({
      modulePath: path.join(hre.config.paths.ignition, "modules", "Collectibles.ts"),
      parameters: JSON.stringify({ [MODULE_ID]: parameters }),
      deploymentId,
    })) as { type: string; contracts?: Record<string, { address: string }> } | null;
    if (result === null) throw new DeployError("Deploy cancelled: nothing was sent.");
    const address = result.contracts?.[FUTURE_ID]?.address;
    if (result.type !== "SUCCESSFUL_DEPLOYMENT" || address === undefined) {
      throw new DeployError(
        `Ignition did not complete the deployment (${result.type}); see its output above.`,
      );
    }

    // The deployment transaction, from Ignition's journal (it survives re-runs that send nothing).
    const journalDir = path.join(hre.config.paths.ignition, "deployments", deploymentId);
    const transactions = await listTransactions(
      journalDir,
      new HardhatArtifactResolver(hre.artifacts),
    );
    const sent = transactions.find(
      (tx) =>
        tx.type === "DEPLOYMENT_EXECUTION_STATE" &&
        tx.status === "SUCCESS" &&
        tx.address?.toLowerCase() === address.toLowerCase(),
    );
    if (sent === undefined) {
      throw new DeployError(`No successful deployment transaction for ${address} in ${journalDir}`);
    }
    const receipt = await publicClient.getTransactionReceipt({ hash: sent.txHash as Hash });

    const deployment: Deployment = {
      chainId,
      contract: "Collectibles",
      address: getAddress(address),
      deployBlock: Number(receipt.blockNumber),
      deployTransaction: receipt.transactionHash,
    };
    const file = writeDeployment(deployment, options.deploymentsDir ?? deploymentsDir());
    log(
      `Collectibles at ${deployment.address}, block ${deployment.deployBlock}: wrote ${file.pathname}`,
    );
    return deployment;
  } finally {
    await connection.close();
  }
}
