/**
 * Where `pnpm start` keeps the local stack's data, and what it knows of the last run:
 *
 *   <DATA_DIR>/chain/state.json     the local chain (written whole every second and at exit)
 *   <DATA_DIR>/deployments/          the contract's deployment file on the local chain
 *   <DATA_DIR>/postgres/             the embedded PostgreSQL (mode 0700): the API's tables, keys
 *                                    and images, and the indexer's schema (rebuilt from the chain)
 *   <DATA_DIR>/api/                  the wallet mnemonic
 *   <DATA_DIR>/running.json          present while a `pnpm start` runs (its pid and its parts');
 *                                    left behind by a crash
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { earlierStackOn, writeMarker } from "./earlierStack.ts";

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

/**
 * Marks the data as in use by this process (see earlierStack.ts, which refuses a start while
 * anything of an earlier one runs on it). Answers whether the last run ended without stopping
 * cleanly (its marker is still there).
 */
export function claimData(data: LocalData): { lastRunCrashed: boolean } {
  const earlier = earlierStackOn(data);
  if (earlier) throw new Error(earlier);
  mkdirSync(data.dir, { recursive: true });
  const lastRunCrashed = existsSync(data.marker);
  writeMarker(data);
  return { lastRunCrashed };
}

/** A clean stop: the next start resumes without checking the chain. */
export function releaseData(data: LocalData): void {
  rmSync(data.marker, { force: true });
}

/**
 * `pnpm start --fresh`: removes the stack's data and says what it removed. With a chain of the
 * operator's (RPC_URL, `localChain` false) the chain and its deployment file are outside the data
 * folder and stay; a local chain an earlier start left in the folder stays too, as this start
 * does not use it (`pnpm start --fresh` without RPC_URL removes it).
 */
export function wipeData(
  data: LocalData,
  log: (line: string) => void,
  { localChain }: { localChain: boolean },
): void {
  const localChainParts = [
    [path.dirname(data.chainState), "the local chain"],
    [data.deployments, "the contract's deployment file"],
  ] as const;
  const parts = [
    ...(localChain ? localChainParts : []),
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
