/**
 * Where `pnpm start` keeps the local stack's data, and what it knows of the last run:
 *
 *   <DATA_DIR>/chain/state.json     the local chain (anvil writes it every second and at exit)
 *   <DATA_DIR>/deployments/          the contract's deployment file
 *   <DATA_DIR>/postgres/             the embedded PostgreSQL (mode 0700): the API's tables, keys
 *                                    and images, and the indexer's schema (rebuilt from the chain)
 *   <DATA_DIR>/api/                  the wallet mnemonic
 *   <DATA_DIR>/running.json          present while a `pnpm start` runs; left behind by a crash
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface LocalData {
  dir: string;
  chainState: string;
  deployments: string;
  postgres: string;
  api: string;
  marker: string;
}

export function localData(dir: string): LocalData {
  return {
    dir,
    chainState: path.join(dir, "chain", "state.json"),
    deployments: path.join(dir, "deployments"),
    postgres: path.join(dir, "postgres"),
    api: path.join(dir, "api"),
    marker: path.join(dir, "running.json"),
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Marks the data as in use by this process. Answers whether the last run ended without stopping
 * cleanly (its marker is still there), and refuses when another `pnpm start` still runs on it.
 */
export function claimData(data: LocalData): { lastRunCrashed: boolean } {
  mkdirSync(path.dirname(data.chainState), { recursive: true });
  let lastRunCrashed = false;
  if (existsSync(data.marker)) {
    const previous = JSON.parse(readFileSync(data.marker, "utf8")) as { pid: number };
    if (previous.pid !== process.pid && alive(previous.pid)) {
      throw new Error(
        `another pnpm start (pid ${previous.pid}) is running on ${data.dir}: stop it first, ` +
          "or give this one its own DATA_DIR",
      );
    }
    lastRunCrashed = true;
  }
  writeFileSync(data.marker, JSON.stringify({ pid: process.pid, startedAt: new Date() }));
  return { lastRunCrashed };
}

/** A clean stop: the next start resumes without checking the chain. */
export function releaseData(data: LocalData): void {
  rmSync(data.marker, { force: true });
}

/** `pnpm start --fresh`: removes the local stack's data and says what it removed. */
export function wipeData(data: LocalData, log: (line: string) => void): void {
  const parts = [
    [path.dirname(data.chainState), "the local chain"],
    [data.deployments, "the contract's deployment file"],
    [data.postgres, "the database (the API's records, API keys and images; the indexer's tables)"],
    [data.api, "the wallet mnemonic"],
    // Left by releases that ran the indexer and the API on PGlite.
    [path.join(data.dir, "indexer"), "the indexer's PGlite database of an earlier release"],
  ] as const;
  for (const [dir, what] of parts) {
    if (!existsSync(dir)) continue;
    rmSync(dir, { recursive: true, force: true });
    log(`--fresh: removed ${what} (${dir})`);
  }
  rmSync(data.marker, { force: true });
}

/**
 * The API's PGlite database of a release before the embedded PostgreSQL, if this folder holds
 * one: its records are not carried over, so the start refuses rather than seem to lose them.
 */
export function pgliteLeftover(data: LocalData): string | undefined {
  const folder = path.join(data.api, "pglite");
  return existsSync(folder) ? folder : undefined;
}
