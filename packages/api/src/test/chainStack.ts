/**
 * A real chain, contract and indexer for the chain tests: a throw-away local chain, Collectibles
 * deployed to it (relayer = development account #0, the minter), and a Ponder indexer on a
 * PostgreSQL database of its own (made on `postgresUrl`'s server, dropped at stop), which can be
 * stopped and started again on the same URL and data (indexer-down tests). Optionally behind a
 * TCP proxy that can cut the RPC (chain-down tests), or an RPC proxy that lets a test act between
 * a process's calls (races).
 */
import fs from "node:fs";
import { createServer } from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { startLocalChain } from "@collectibles/devkit/chain";
import { createPostgresDatabase } from "@collectibles/devkit/postgres";
import { freePort } from "@collectibles/devkit/processes";
import { type RunningIndexer, startIndexer } from "@collectibles/indexer/testing";
import { type Address, createPublicClient, http, type PublicClient } from "viem";

export interface ChainStack {
  /** The chain's own RPC URL. */
  rpcUrl: string;
  deploymentsDir: string;
  contract: Address;
  indexerUrl: string;
  /** The running indexer (a new one after `restartIndexer`). */
  readonly indexer: RunningIndexer;
  /** Stops the indexer as Ponder wants (SIGINT, SIGKILL after 15 s); its data stays. */
  stopIndexer(): Promise<void>;
  /** Starts the indexer again on the same URL and data; resolves once it is ready. */
  startIndexer(): Promise<void>;
  client: PublicClient;
  /** Environment for an API on this stack. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** `postgresUrl`: a role on a PostgreSQL server that may create databases. */
export async function startChainStack({
  postgresUrl,
}: {
  postgresUrl: string;
}): Promise<ChainStack> {
  const chain = await startLocalChain();
  const deploymentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-deployments-"));
  // The stack's own database and port, so a restarted indexer resumes at the same URL.
  const indexerDatabase = await createPostgresDatabase(postgresUrl, "indexer_test");
  try {
    const deployment = await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir });
    const port = await freePort();
    const start = () =>
      startIndexer({
        rpcUrl: chain.rpcUrl,
        deploymentsDir,
        databaseUrl: indexerDatabase.url,
        port,
        waitForReady: true,
      });
    let indexer = await start();
    let running = true;
    const indexerUrl = indexer.url;
    const client = createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 50 });
    return {
      rpcUrl: chain.rpcUrl,
      deploymentsDir,
      contract: deployment.address,
      indexerUrl,
      get indexer() {
        return indexer;
      },
      async stopIndexer() {
        running = false;
        // Forced after 15 s on a slow machine: the next start then waits for Ponder's schema lock.
        await indexer.stop();
      },
      async startIndexer() {
        if (running) throw new Error("the indexer is already running");
        const restarted = await start();
        running = true;
        indexer = restarted;
        // Ponder takes the next port when its own is taken: the API would not find it there.
        if (restarted.url !== indexerUrl) {
          throw new Error(`the indexer came back at ${restarted.url}, not ${indexerUrl}`);
        }
      },
      client,
      env: {
        RPC_URL: chain.rpcUrl,
        CHAIN_ID: "31337",
        DEPLOYMENTS_DIR: deploymentsDir,
        INDEXER_URL: indexer.url,
      },
      async stop() {
        await indexer.stop().catch(() => {});
        await chain.stop();
        fs.rmSync(deploymentsDir, { recursive: true, force: true });
        await indexerDatabase.drop();
      },
    };
  } catch (error) {
    await chain.stop();
    await indexerDatabase.drop();
    throw error;
  }
}

/** A TCP proxy to `target` whose traffic can be cut (`cut()`) and restored (`restore()`). */
export interface CuttableProxy {
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startCuttableProxy(targetUrl: string): Promise<CuttableProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(Number(target.port), target.hostname);
        sockets.add(client);
        sockets.add(upstream);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on("error", drop).on("close", drop);
        upstream.on("error", drop).on("close", drop);
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });
  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    cut: stop,
    restore: listen,
    close: stop,
  };
}

/** One JSON-RPC call as a client sent it (alone, or one of a batch). */
export interface RpcCall {
  method: string;
  params?: unknown[];
}

/**
 * An HTTP proxy to the chain's RPC that lets a test act between a client's calls: `before` runs
 * with each request's calls (a batch's together) before they are forwarded, and the request waits
 * for it. A test uses it to change the chain at an exact point of what a process reads.
 */
export async function startRpcInterceptor(
  targetUrl: string,
  before: (calls: RpcCall[]) => Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    try {
      const parsed = JSON.parse(body) as RpcCall | RpcCall[];
      await before(Array.isArray(parsed) ? parsed : [parsed]);
      const answer = await fetch(targetUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(await answer.text());
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
