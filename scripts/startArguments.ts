/**
 * What `pnpm start` is given: its arguments (`--fresh`, `--help`), checked before anything
 * starts, so a typo is refused with what is accepted instead of being ignored (`--frsh` would
 * have resumed the old data). Port variables are read with devkit's `portFrom`.
 */
import { parseArgs } from "node:util";

export const USAGE = `Usage: pnpm start [--fresh]

Runs the whole service on this machine: a local chain (anvil) with the contract, PostgreSQL, the
indexer and the API. Every start resumes the data of the last one; Ctrl-C stops everything.

  --fresh   remove the local data first (it names what it removes)
  --help    show this text

Environment (default):
  PORT              the API's port (3000); HOST, the address it listens on
  INDEXER_PORT      the indexer's port (42069), on 127.0.0.1 unless INDEXER_HOST
  CHAIN_PORT        the local chain's port (8545)
  DB_PORT           the embedded PostgreSQL's port (54320)
  DATA_DIR          where the chain, the database and the API's files live (.data)
  DATABASE_URL      a PostgreSQL of your own instead of the embedded one
  RPC_URL, CHAIN_ID a chain of your own (with its deployment) instead of the local one

More: README.md.`;

export interface StartArguments {
  fresh: boolean;
  help: boolean;
}

/** The arguments after `pnpm start`; throws naming what is not one. */
export function parseStartArguments(argv: string[]): StartArguments {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { fresh: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    });
    return { fresh: values.fresh ?? false, help: values.help ?? false };
  } catch (error) {
    throw new Error(
      `${(error as Error).message.split(".")[0]}: pnpm start takes --fresh and --help only`,
    );
  }
}
