/**
 * This indexer as a child process, for the tests and benchmarks of every package that needs one:
 * devkit's Ponder runner, pointed at this package's folder. Each indexer of its own local chain
 * needs a database of its own (not only a schema): Ponder's cache of a chain is per database,
 * and the indexer resets what a database holds of another instance of the chain.
 *
 * ```ts
 * const indexer = await startIndexer({ rpcUrl, deploymentsDir, databaseUrl });
 * // ... read it at indexer.url ...
 * await indexer.stop();
 * ```
 */
import { fileURLToPath } from "node:url";
import {
  type RunningPonder,
  type StartPonderOptions,
  startPonder,
} from "@collectibles/devkit/ponder";

/** The indexer package's folder: Ponder's project root. */
export const indexerRoot = fileURLToPath(new URL("../", import.meta.url));

export type RunningIndexer = RunningPonder;

export interface StartIndexerOptions extends Omit<StartPonderOptions, "appDir"> {
  /** Another Ponder project than this indexer (the benchmark runs its baseline app). */
  root?: string;
}

export function startIndexer({ root, ...options }: StartIndexerOptions): Promise<RunningIndexer> {
  return startPonder({ appDir: root ?? indexerRoot, ...options });
}
