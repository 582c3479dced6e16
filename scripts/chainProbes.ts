/** What `pnpm start` asks the chain and the indexer while it runs them. */

/** Whether the chain has code at `address`. */
export async function codeAt(rpcUrl: string, address: string): Promise<boolean> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_getCode",
      params: [address, "latest"],
    }),
  });
  const { result } = (await response.json()) as { result?: string };
  return result !== undefined && result !== "0x";
}

export async function chainHead(rpcUrl: string): Promise<number> {
  const response = await fetch(rpcUrl, {
    signal: AbortSignal.timeout(2_000),
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
  });
  return Number(((await response.json()) as { result: string }).result);
}

/** The block the indexer has indexed up to (Ponder's /status), or -1 while it says nothing. */
export async function indexedBlock(port: number): Promise<number> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/status`, {
      signal: AbortSignal.timeout(2_000),
    });
    const status = (await response.json()) as Record<string, { block?: { number?: number } }>;
    return Math.min(...Object.values(status).map((chain) => chain.block?.number ?? -1));
  } catch {
    return -1;
  }
}
