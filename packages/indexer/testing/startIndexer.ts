/**
 * Test helpers for every package that needs a running indexer: start `ponder start` on a chain as
 * a child process with its own data (a temp PGlite folder, or its own PostgreSQL database), wait
 * until it answers, stop it with SIGINT (as Ponder wants), and clean up.
 *
 * ```ts
 * const indexer = await startIndexer({ rpcUrl, deploymentsDir });
 * // ... read it at indexer.url ...
 * await indexer.stop();
 * ```
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  freePort,
  killAllTracked,
  killGroup,
  trackGroup,
  untrackGroup,
} from "@collectibles/deploy/childProcesses";
import pg from "pg";

/** The indexer package's folder: Ponder's project root. */
export const indexerRoot = fileURLToPath(new URL("../", import.meta.url));

export interface StartIndexerOptions {
  rpcUrl: string;
  /** Folder holding `<chainId>.json`, as written by `deployCollectibles`. */
  deploymentsDir: string;
  chainId?: number;
  /** PostgreSQL connection string; PGlite in `dataDir` when absent. */
  databaseUrl?: string;
  /** Folder for PGlite (and nothing else); when absent, a temp folder removed on stop(). */
  dataDir?: string;
  /** Ponder's database schema. Default `collectibles`. */
  schema?: string;
  /** HTTP port; a free one when absent. */
  port?: number;
  /** Ponder project root: the indexer package by default (the benchmark passes its baseline). */
  root?: string;
  /** Resolve once `/ready` answers 200 (historical indexing done) instead of once `/health` does. */
  waitForReady?: boolean;
  /** Extra environment for the child. */
  env?: Record<string, string>;
  /** Called with each JSON log line Ponder prints. */
  onLog?: (line: PonderLogLine) => void;
}

export interface StopResult {
  forced: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface PonderLogLine {
  level: number;
  time: number;
  msg: string;
  [key: string]: unknown;
}

export interface RunningIndexer {
  /** Base URL: `/sql/*`, `/status`, `/ready`, `/health` live under it. */
  url: string;
  port: number;
  schema: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The last lines Ponder printed (for failure messages). */
  logTail(): string;
  /**
   * SIGINT, then SIGKILL after `graceMs`; resolves once the whole process group is gone, telling
   * whether Ponder shut down by itself (`forced: false`) and how it exited.
   */
  stop(graceMs?: number): Promise<StopResult>;
}

const START_TIMEOUT_MS = 90_000;

/**
 * Kills every indexer this process started that is still running, including one whose start
 * is still pending (a timed-out test never got its handle). For `afterAll`.
 */
export function killAllIndexers(): void {
  killAllTracked();
}

/** Ponder's command-line entry as installed for this package (it exports no `package.json`). */
const ponderCli = path.join(indexerRoot, "node_modules/ponder/dist/esm/bin/ponder.js");

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Spawns `ponder start` (Node 22, telemetry off, JSON logs) in its own process group and resolves
 * once it serves HTTP (or is ready, with `waitForReady`). Rejects with Ponder's log tail when it
 * exits or does not answer in time.
 */
export async function startIndexer(opts: StartIndexerOptions): Promise<RunningIndexer> {
  const root = opts.root ?? indexerRoot;
  const schema = opts.schema ?? "collectibles";
  // A folder made here is this indexer's own: it goes when the indexer stops.
  const ownDataDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), "indexer-"));
  const port = opts.port ?? (await freePort());

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PONDER_TELEMETRY_DISABLED: "1",
    RPC_URL: opts.rpcUrl,
    CHAIN_ID: String(opts.chainId ?? 31337),
    DEPLOYMENTS_DIR: opts.deploymentsDir,
    INDEXER_DATA_DIR: dataDir,
    ...opts.env,
  };
  // Ponder prefers these over its flags; this child gets exactly what the options say.
  for (const name of ["PORT", "DATABASE_URL", "DATABASE_PRIVATE_URL", "DATABASE_SCHEMA"]) {
    delete env[name];
  }
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;

  const child = spawn(
    process.execPath,
    [ponderCli, "start", "--schema", schema, "--port", String(port), "--log-format", "json"],
    // Its own process group: stop() signals Ponder together with any worker it started.
    { cwd: root, detached: true, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error("Could not spawn `ponder start`");
  trackGroup(pid);

  let tail = "";
  let actualPort = port;
  let pending = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    const text = chunk.toString();
    tail = (tail + text).slice(-12_000);
    pending += text;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const raw of lines) {
      let line: PonderLogLine;
      try {
        line = JSON.parse(raw) as PonderLogLine;
      } catch {
        continue;
      }
      // Ponder moves to the next port when the one asked for is taken: follow it.
      if (line.msg === "Created HTTP server" && typeof line.port === "number") {
        actualPort = line.port;
      }
      opts.onLog?.(line);
    }
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-12_000);
  });
  child.unref();

  let stopped: Promise<StopResult> | undefined;
  const stop = (graceMs = 15_000) => {
    stopped ??= (async () => {
      // SIGINT releases Ponder's schema lock; after SIGTERM the next start waits on it.
      killGroup(pid, "SIGINT");
      const forced = !(await waitForExit(child, graceMs));
      if (forced) {
        killGroup(pid, "SIGKILL");
        await waitForExit(child, 5_000);
      }
      // Whatever the group still holds (workers) goes too.
      killGroup(pid, "SIGKILL");
      untrackGroup(pid);
      if (ownDataDir) removeDataDir(dataDir);
      return { forced, code: child.exitCode, signal: child.signalCode };
    })();
    return stopped;
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  const probe = opts.waitForReady ? "ready" : "health";
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      untrackGroup(pid);
      if (ownDataDir) removeDataDir(dataDir);
      throw new Error(
        `\`ponder start\` exited (${child.exitCode ?? child.signalCode}) before answering:\n${tail}`,
      );
    }
    if (await answers(`http://127.0.0.1:${actualPort}/${probe}`)) break;
    if (Date.now() > deadline) {
      await stop(2_000);
      throw new Error(`\`ponder start\` did not answer /${probe} within 90 s:\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    schema,
    dataDir,
    databaseUrl: opts.databaseUrl,
    logTail: () => tail,
    stop,
  };
}

export interface TestDatabase {
  /** Connection string of the new database. */
  url: string;
  /** Drops the database (connections still open are ended first). */
  drop(): Promise<void>;
}

/**
 * Creates a database of its own on the server `serverUrl` points at, so a run never sees another
 * run's tables or Ponder's RPC cache (`ponder_sync`, shared by every app in one database).
 * Fails, never skips, when the server cannot be reached.
 */
export async function createTestDatabase(
  serverUrl: string,
  prefix = "indexer_test",
): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL at ${redact(serverUrl)} is unreachable (${(error as Error).message}). ` +
        "Start it with scripts/ci-postgres.sh, or point TEST_DATABASE_URL at a server.",
    );
  }
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A connection string without its password, for messages. */
export function redact(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "<invalid connection string>";
  }
}

/** Removes a folder `startIndexer` created (ignores one that is already gone). */
export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
