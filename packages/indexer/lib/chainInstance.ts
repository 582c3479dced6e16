import type { Deployment } from "@collectibles/deploy";

/**
 * The deployment's block hash, read from the chain: it names one chain instance. A Hardhat node
 * restarted from scratch reuses the chain id, the contract address and the block numbers, but
 * not the block hashes (they cover timestamps), so local state kept under this name is never
 * served for another instance of the "same" chain.
 *
 * Also the start-up check that the deployment is on this chain: it fails with the fix when the
 * node is down, the deployment block is missing, or no contract is at the address.
 */
export async function deploymentBlockHash(rpcUrl: string, deployment: Deployment): Promise<string> {
  const call = async <T>(method: string, params: unknown[]): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new Error(`RPC_URL ${rpcUrl} is unreachable: ${(error as Error).message}`);
    }
    const body = (await response.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method} at ${rpcUrl} failed: ${body.error.message}`);
    return body.result as T;
  };
  const redeploy =
    deployment.chainId === 31337
      ? "Deploy again (pnpm deploy:local)."
      : "Check RPC_URL and CHAIN_ID.";
  const block = await call<{ hash: string } | null>("eth_getBlockByNumber", [
    `0x${deployment.deployBlock.toString(16)}`,
    false,
  ]);
  if (!block) {
    throw new Error(
      `Chain at ${rpcUrl} has no block ${deployment.deployBlock}, where the deployment says ` +
        `Collectibles was deployed. ${redeploy}`,
    );
  }
  const code = await call<string>("eth_getCode", [deployment.address, "latest"]);
  if (!code || code === "0x") {
    throw new Error(`No contract at ${deployment.address} on the chain at ${rpcUrl}. ${redeploy}`);
  }
  return block.hash;
}
