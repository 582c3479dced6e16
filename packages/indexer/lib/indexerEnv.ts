/** Settings the indexer reads from the environment, checked once. */
export interface IndexerEnv {
  /** JSON-RPC endpoint of the chain (`RPC_URL`). */
  rpcUrl: string;
  /** Chain id; selects `<DEPLOYMENTS_DIR>/<chainId>.json` (`CHAIN_ID`). */
  chainId: number;
  /** PostgreSQL connection string (`DATABASE_PRIVATE_URL`, else `DATABASE_URL`). */
  databaseUrl: string;
  /** How often Ponder polls for new blocks (`INDEXER_POLLING_INTERVAL_MS`). */
  pollingIntervalMs: number;
}

function positiveInt(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
  }
  return value;
}

export function indexerEnv(source: NodeJS.ProcessEnv = process.env): IndexerEnv {
  const rpcUrl = source.RPC_URL || "http://127.0.0.1:8545";
  try {
    new URL(rpcUrl);
  } catch {
    throw new Error(`RPC_URL must be a URL, got "${rpcUrl}"`);
  }
  const chainId = positiveInt("CHAIN_ID", source.CHAIN_ID || "31337");
  // Without a URL Ponder would quietly fall back to a PGlite of its own in .ponder/: stop instead.
  const databaseUrl = source.DATABASE_PRIVATE_URL || source.DATABASE_URL;
  if (!databaseUrl) {
    throw new Error(
      "DATABASE_URL is not set: the indexer runs on PostgreSQL only. `pnpm start` sets it (to " +
        "the PostgreSQL it runs); otherwise set DATABASE_URL=postgres://user:password@host:5432/db.",
    );
  }
  // A local node answers instantly, so poll often: an event shows up ~0.1 s after its block.
  // Remote RPCs are polled at Ponder's default, once a second.
  const defaultPolling = chainId === 31337 ? "100" : "1000";
  const pollingIntervalMs = positiveInt(
    "INDEXER_POLLING_INTERVAL_MS",
    source.INDEXER_POLLING_INTERVAL_MS || defaultPolling,
  );
  return { rpcUrl, chainId, databaseUrl, pollingIntervalMs };
}
