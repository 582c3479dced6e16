import { pathToFileURL } from "node:url";

/** Settings the indexer reads from the environment, checked once. */
export interface IndexerEnv {
  /** JSON-RPC endpoint of the chain (`RPC_URL`). */
  rpcUrl: string;
  /** Chain id; selects `<DEPLOYMENTS_DIR>/<chainId>.json` (`CHAIN_ID`). */
  chainId: number;
  /** PostgreSQL connection string; PGlite when absent (`DATABASE_URL`). */
  databaseUrl: string | undefined;
  /** Folder for PGlite's files, ending in `/` (`INDEXER_DATA_DIR`). */
  dataDir: URL;
  /** How often Ponder polls for new blocks (`INDEXER_POLLING_INTERVAL_MS`). */
  pollingIntervalMs: number;
}

/** The repository's `.data/` folder (ignored by git); every package keeps its local state there. */
const DEFAULT_DATA_DIR = new URL("../../../.data/indexer/", import.meta.url);

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
  const dataDir = source.INDEXER_DATA_DIR
    ? pathToFileURL(`${source.INDEXER_DATA_DIR.replace(/\/+$/, "")}/`)
    : DEFAULT_DATA_DIR;
  // A local node answers instantly, so poll often: an event shows up ~0.1 s after its block.
  // Remote RPCs are polled at Ponder's default, once a second.
  const defaultPolling = chainId === 31337 ? "100" : "1000";
  const pollingIntervalMs = positiveInt(
    "INDEXER_POLLING_INTERVAL_MS",
    source.INDEXER_POLLING_INTERVAL_MS || defaultPolling,
  );
  return {
    rpcUrl,
    chainId,
    databaseUrl: source.DATABASE_PRIVATE_URL || source.DATABASE_URL || undefined,
    dataDir,
    pollingIntervalMs,
  };
}
