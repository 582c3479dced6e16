/**
 * Test helpers for every package that needs a chain: start a throw-away Hardhat node and deploy
 * Collectibles to it in well under a second (plain viem, not Ignition).
 *
 * ```ts
 * const chain = await startLocalChain();
 * const deployment = await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir: tmp });
 * // ... test ...
 * await chain.stop();
 * ```
 *
 * The contract comes from deploy/artifacts (`pnpm build` / `pnpm test` build it first; when it is
 * missing or older than the sources in contracts/, the first deploy builds it, ~10 s).
 */
import { pathToFileURL } from "node:url";
import { DEFAULT_HOOK_GAS_BUDGET } from "@collectibles/contracts";
import { type Address, createPublicClient, createWalletClient, http } from "viem";
import { collectiblesArtifact } from "./artifact.ts";
import { startHardhatNode } from "./hardhatNode.ts";
import { type Deployment, writeDeployment } from "./index.ts";

/** Hardhat's well-known development mnemonic: accounts of every `hardhat node`. Never on a real chain. */
export const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";
/** Account #0 of `hardhat node`: deployer, admin and default minter of test deployments. */
export const HARDHAT_ACCOUNT_0: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

export interface LocalChain {
  rpcUrl: string;
  chainId: 31337;
  port: number;
  stop(): Promise<void>;
}

/**
 * Spawns `hardhat node --port <port>` (free port when omitted) from the contracts package on
 * Node 22, waits until eth_chainId answers, and kills it (whole process group) on stop().
 */
export async function startLocalChain(opts: { port?: number } = {}): Promise<LocalChain> {
  const node = await startHardhatNode({ port: opts.port, chainId: 31337 });
  return { rpcUrl: node.rpcUrl, chainId: 31337, port: node.port, stop: node.stop };
}

/**
 * Deploys Collectibles to rpcUrl with viem (fast; not Ignition) from the compiled artifact,
 * admin = minter = Hardhat's account #0 (or opts.minter), and writes <deploymentsDir>/<chainId>.json.
 * The admin delay is 0: tests may transfer the admin role without waiting; the hook gas budget is
 * the deploy tooling's default (50,000) unless opts.hookGasBudget is given.
 */
export async function deployCollectibles(opts: {
  rpcUrl: string;
  deploymentsDir: string;
  minter?: `0x${string}`;
  /** Gas a receiver's hook gets; default the deploy tooling's (50,000). */
  hookGasBudget?: bigint;
}): Promise<Deployment> {
  const artifact = await collectiblesArtifact();
  const transport = http(opts.rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ transport, pollingInterval: 50 });
  let chainId: number;
  try {
    chainId = await publicClient.getChainId();
  } catch (error) {
    throw new Error(`Cannot reach the chain at ${opts.rpcUrl}: ${(error as Error).message}`);
  }
  const wallet = createWalletClient({ account: HARDHAT_ACCOUNT_0, transport });
  const hash = await wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [
      0,
      HARDHAT_ACCOUNT_0,
      opts.minter ?? HARDHAT_ACCOUNT_0,
      opts.hookGasBudget ?? DEFAULT_HOOK_GAS_BUDGET,
    ],
    chain: null,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) {
    throw new Error(`Deploying Collectibles failed in transaction ${hash}`);
  }
  const deployment: Deployment = {
    chainId,
    contract: "Collectibles",
    address: receipt.contractAddress,
    deployBlock: Number(receipt.blockNumber),
    deployTransaction: hash,
  };
  writeDeployment(deployment, pathToFileURL(`${opts.deploymentsDir.replace(/\/+$/, "")}/`));
  return deployment;
}
