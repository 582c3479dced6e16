/**
 * Runs a Ponder app (`ponder start`) as a child process on the PostgreSQL database it is given,
 * waits until it answers, and stops it with SIGINT, as Ponder wants (after SIGTERM its next start
 * waits on a schema lock).
 *
 * The app's folder is given by the caller (the indexer package exports its own as
 * `@collectibles/indexer/testing`), so this package depends on none of the apps it runs.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import {
  freePort,
  httpAnswers,
  KNOWN_MODULE_FORMATS,
  type StopResult,
  startProcess,
} from "./processes.ts";

export interface StartPonderOptions {
  /** The Ponder project: the folder holding `ponder.config.ts` and `node_modules/ponder`. */
  appDir: string;
  rpcUrl: string;
  /** Folder holding `<chainId>.json`, as `deployCollectibles` writes it. */
  deploymentsDir: string;
  chainId?: number;
  /** PostgreSQL connection string, passed as DATABASE_URL. */
  databaseUrl: string;
  /** Ponder's database schema. Default `collectibles`. */
  schema?: string;
  /** HTTP port; a free one when absent. */
  port?: number;
  /** Resolve once `/ready` answers 200 (historical indexing done) instead of `/health`. */
  waitForReady?: boolean;
  /** Extra environment for the child. */
  env?: Record<string, string>;
  /** Called with each JSON log line Ponder prints. */
  onLog?: (line: PonderLogLine) => void;
}

export interface PonderLogLine {
  level: number;
  time: number;
  msg: string;
  [key: string]: unknown;
}

export interface RunningPonder {
  /** Base URL: `/sql/*`, `/status`, `/ready`, `/health` live under it. */
  url: string;
  port: number;
  schema: string;
  databaseUrl: string;
  /** The last lines Ponder printed (for failure messages). */
  logTail(): string;
  /** SIGINT, SIGKILL after `graceMs`; resolves once the whole process group is gone. */
  stop(graceMs?: number): Promise<StopResult>;
  /** Freezes or thaws the process (a stall, for fault tests). */
  pause(): void;
  resume(): void;
}

const START_TIMEOUT_MS = 90_000;

export async function startPonder(opts: StartPonderOptions): Promise<RunningPonder> {
  const schema = opts.schema ?? "collectibles";
  const port = opts.port ?? (await freePort());

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PONDER_TELEMETRY_DISABLED: "1",
    RPC_URL: opts.rpcUrl,
    CHAIN_ID: String(opts.chainId ?? 31337),
    DEPLOYMENTS_DIR: opts.deploymentsDir,
    ...opts.env,
  };
  // Ponder prefers these over its flags; this child gets exactly what the options say.
  for (const name of ["PORT", "DATABASE_PRIVATE_URL", "DATABASE_SCHEMA"]) delete env[name];
  env.DATABASE_URL = opts.databaseUrl;

  let actualPort = port;
  const ponder = startProcess({
    name: `ponder on port ${port}`,
    command: process.execPath,
    args: [
      ...KNOWN_MODULE_FORMATS,
      ponderBin(opts.appDir),
      "start",
      ...["--schema", schema, "--port", String(port), "--log-format", "json"],
      // Loopback only: Ponder's default is every interface.
      ...["--hostname", "127.0.0.1"],
    ],
    cwd: opts.appDir,
    env,
    stopSignal: "SIGINT",
    onLine: (raw) => {
      let line: PonderLogLine;
      try {
        line = JSON.parse(raw) as PonderLogLine;
      } catch {
        return;
      }
      // Ponder moves to the next port when the one asked for is taken: follow it.
      if (line.msg === "Created HTTP server" && typeof line.port === "number") {
        actualPort = line.port;
      }
      opts.onLog?.(line);
    },
  });
  const stop = (graceMs = 15_000) => ponder.stop(graceMs);

  const probe = opts.waitForReady ? "ready" : "health";
  try {
    await ponder.waitUntil(
      `answering /${probe}`,
      () => httpAnswers(`http://127.0.0.1:${actualPort}/${probe}`),
      START_TIMEOUT_MS,
    );
  } catch (error) {
    await stop(2_000);
    throw error;
  }
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    schema,
    databaseUrl: opts.databaseUrl,
    logTail: ponder.tail,
    stop,
    pause: ponder.pause,
    resume: ponder.resume,
  };
}

/**
 * Ponder's command-line entry as Node would find the package from the app's folder: in its own
 * node_modules or a parent's (the indexer's benchmark baseline app lives inside the indexer
 * package and has none of its own). Found by path: the package exports no package.json.
 */
function ponderBin(appDir: string): string {
  for (let dir = path.resolve(appDir); ; dir = path.dirname(dir)) {
    const bin = path.join(dir, "node_modules/ponder/dist/esm/bin/ponder.js");
    if (existsSync(bin)) return bin;
    if (path.dirname(dir) === dir) throw new Error(`no node_modules/ponder above ${appDir}`);
  }
}
