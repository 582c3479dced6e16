/**
 * Mends a flaw of anvil's state file (seen in anvil 1.7.1) before anvil loads it.
 *
 * Every anvil start makes a genesis block stamped with the current time; loading a state file
 * then puts the file's genesis in its place, but the new one stays among the stored blocks, and
 * the next dump lists both. On the following load the last genesis listed wins, and the order is
 * a hash map's: the chain can come back with a genesis that its block 1 does not name as parent.
 * An indexer that reads the chain from genesis (Ponder does while the chain is younger than its
 * finality window of 30 blocks) then sees a reorg below its finalized block and stops.
 *
 * The genesis the chain was built on is the earliest one: each later one was made by a later
 * start. Keeping only it gives every load the chain as it was.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";

interface StateFile {
  blocks?: { header: { number: string; timestamp: string } }[];
}

/** Removes every genesis block but the first one from anvil's state file. Answers how many. */
export function keepFirstGenesis(stateFile: string): number {
  let text: string;
  try {
    text = readFileSync(stateFile, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  const state = JSON.parse(text, (_key, value) => {
    // A number past 2^53 would not survive the rewrite: better the flaw than a changed chain.
    if (typeof value === "number" && !Number.isSafeInteger(value) && Number.isInteger(value)) {
      throw new Error(`${stateFile} holds a number too large to rewrite safely: ${value}`);
    }
    return value;
  }) as StateFile;
  const blocks = state.blocks ?? [];
  const geneses = blocks.filter((block) => BigInt(block.header.number) === 0n);
  if (geneses.length < 2) return 0;
  const first = geneses.reduce((earliest, block) =>
    BigInt(block.header.timestamp) < BigInt(earliest.header.timestamp) ? block : earliest,
  );
  state.blocks = blocks.filter((block) => BigInt(block.header.number) !== 0n || block === first);
  // Written aside and renamed into place: a crash here leaves the old file whole.
  const mended = `${stateFile}.mending`;
  writeFileSync(mended, JSON.stringify(state));
  renameSync(mended, stateFile);
  return geneses.length - 1;
}
