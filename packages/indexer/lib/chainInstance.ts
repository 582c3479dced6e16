import type { Deployment } from "@collectibles/deploy";
import pg from "pg";

/**
 * The deployment's block hash, read from the chain: it names one chain instance. A Hardhat node
 * restarted from scratch reuses the chain id, the contract address and the block numbers, but
 * not the block hashes (they cover timestamps).
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

/**
 * Makes the database forget what it holds of another instance of a local chain. On a node
 * restarted from scratch Ponder would otherwise resume from the old chain's finalized rows, and
 * its backfill would read the old chain's logs from the `ponder_sync` cache (one row per chain
 * id and block number, the first write wins).
 *
 * The instance a database holds is the comment on `ponder_sync`, the cache every Ponder app of
 * the database shares. On another instance the chain's cached rows are deleted, and every app
 * schema that indexed the chain is marked as a `ponder dev` build, whose tables Ponder drops on
 * its next start: it then indexes the new chain from its first block.
 */
export async function forgetOtherChainInstances(
  databaseUrl: string,
  chainId: number,
  blockHash: string,
): Promise<void> {
  const instance = `chain ${chainId} from deployment block ${blockHash}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    // Indexers starting side by side on one database check one after the other.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('ponder_sync chain instance'))");
    await client.query("CREATE SCHEMA IF NOT EXISTS ponder_sync");
    const { rows } = await client.query<{ held: string | null }>(
      "SELECT obj_description('ponder_sync'::regnamespace, 'pg_namespace') AS held",
    );
    if (rows[0]?.held !== instance) {
      const cached = await client.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.columns " +
          "WHERE table_schema = 'ponder_sync' AND column_name = 'chain_id'",
      );
      for (const { name } of cached.rows) {
        await client.query(`DELETE FROM ponder_sync.${quote(name)} WHERE chain_id = $1`, [chainId]);
      }
      const apps = await client.query<{ schema: string }>(
        "SELECT table_schema AS schema FROM information_schema.tables " +
          "WHERE table_name = '_ponder_checkpoint'",
      );
      for (const { schema } of apps.rows) {
        await client.query(
          `UPDATE ${quote(schema)}._ponder_meta SET value = jsonb_set(value, '{is_dev}', '1') ` +
            `WHERE key = 'app' AND EXISTS ` +
            `(SELECT 1 FROM ${quote(schema)}._ponder_checkpoint WHERE chain_id = $1)`,
          [chainId],
        );
      }
      await client.query(`COMMENT ON SCHEMA ponder_sync IS ${client.escapeLiteral(instance)}`);
    }
    await client.query("COMMIT");
  } finally {
    await client.end();
  }
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
