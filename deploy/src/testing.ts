/**
 * Deploys Collectibles in well under a second for tests and benchmarks (plain viem, not
 * Ignition), to a chain such as `@collectibles/devkit/chain`'s local node:
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
import { DEV_ACCOUNT_0 } from "@collectibles/devkit/chain";
import { createPublicClient, createWalletClient, http } from "viem";
import { collectiblesArtifact } from "./artifact.ts";
import { type Deployment, writeDeployment } from "./index.ts";

/**
 * Deploys Collectibles to rpcUrl with viem (fast; not Ignition) from the compiled artifact,
 * admin = minter = the development account #0 (or opts.minter), and writes <deploymentsDir>/<chainId>.json.
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
  const wallet = createWalletClient({ account: DEV_ACCOUNT_0, transport });
  const hash = await wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [
      0,
      DEV_ACCOUNT_0,
      opts.minter ?? DEV_ACCOUNT_0,
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
