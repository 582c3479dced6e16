/**
 * The local chain's state file: written whole or not at all, and read back as the chain was.
 *
 * anvil 1.7.1's own `--state`/`--state-interval` writes the file in place: a kill while it
 * writes (every second, several MB for a few thousand claims) leaves it cut short, and the chain
 * cannot be loaded again. So the chain's state is fetched over RPC (`anvil_dumpState`, the same
 * JSON, gzipped) and written beside the file, flushed to disk, then renamed over it.
 *
 * Its dump also has a flaw that loading must mend. Every anvil start makes a genesis block
 * stamped with the current time; loading a state file puts the file's genesis in its place, but
 * the new one stays among the stored blocks, and the next dump lists both. On the following load
 * the last genesis listed wins, in a hash map's order: the chain can come back with a genesis
 * that its block 1 does not name as parent. An indexer that reads the chain from genesis (Ponder
 * does while the chain is younger than its finality window of 30 blocks) then sees a reorg below
 * its finalized block and stops. The genesis the chain was built on is the earliest: each later
 * one was made by a later start.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";

const gunzipAsync = promisify(gunzip);

interface StateFile {
  blocks?: { header: { number: string; timestamp: string } }[];
}

/** A state file that is not a chain's state, most likely cut short while anvil wrote it in place. */
export class UnreadableStateFile extends Error {
  constructor(stateFile: string, cause: unknown) {
    super(
      `the local chain's state file ${stateFile} cannot be read (${(cause as Error).message}): ` +
        "most likely a kill cut it short while anvil wrote it in place, before this release " +
        "wrote it whole",
      { cause },
    );
  }
}

/**
 * Makes `stateFile` ready for `anvil --load-state`: answers false when there is none. Only the
 * first genesis is kept; a file that cannot be read throws UnreadableStateFile.
 */
export async function prepareStateFile(stateFile: string): Promise<boolean> {
  rmSync(writingFileOf(stateFile), { force: true });
  if (!existsSync(stateFile)) return false;
  let state: StateFile;
  try {
    state = JSON.parse(readFileSync(stateFile, "utf8"), refuseUnsafeIntegers) as StateFile;
  } catch (error) {
    throw new UnreadableStateFile(stateFile, error);
  }
  if (keepFirstGenesis(state)) await writeWhole(stateFile, JSON.stringify(state));
  return true;
}

/** Removes every genesis block of `state` but the earliest. Answers whether any was removed. */
function keepFirstGenesis(state: StateFile): boolean {
  const blocks = state.blocks ?? [];
  const geneses = blocks.filter((block) => BigInt(block.header.number) === 0n);
  if (geneses.length < 2) return false;
  const first = geneses.reduce((earliest, block) =>
    BigInt(block.header.timestamp) < BigInt(earliest.header.timestamp) ? block : earliest,
  );
  state.blocks = blocks.filter((block) => BigInt(block.header.number) !== 0n || block === first);
  return true;
}

// A number past 2^53 would not survive a rewrite: better to leave the file than change the chain.
function refuseUnsafeIntegers(_key: string, value: unknown) {
  if (typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    throw new Error(`it holds a number too large to rewrite safely: ${value}`);
  }
  return value;
}

export interface StateSnapshots {
  /** Writes the chain's state now if it changed since the last write. */
  write(options?: { evenIfUnchanged?: boolean }): Promise<void>;
  /** No more periodic writes (the one under way finishes). */
  stop(): Promise<void>;
}

/** Writes the chain at `rpcUrl` to `stateFile` every `intervalMs` while its head changes. */
export function startStateSnapshots(
  rpcUrl: string,
  stateFile: string,
  intervalMs: number,
): StateSnapshots {
  let lastHead: string | undefined;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const writeOnce = async (evenIfUnchanged: boolean) => {
    const head = await rpc<{ hash: string }>(rpcUrl, "eth_getBlockByNumber", ["latest", false]);
    if (!evenIfUnchanged && head.hash === lastHead) return;
    const dump = await rpc<string>(rpcUrl, "anvil_dumpState", []);
    await writeWhole(stateFile, await gunzipAsync(Buffer.from(dump.slice(2), "hex")));
    lastHead = head.hash;
  };
  const write = ({ evenIfUnchanged = false } = {}) => {
    // One write at a time, each after the last whether or not that one failed.
    running = running.catch(() => {}).then(() => writeOnce(evenIfUnchanged));
    return running;
  };
  const tick = () => {
    // A chain that stopped answering keeps its last state file; the owner decides what follows.
    write()
      .catch(() => {})
      .finally(() => {
        if (timer) timer = setTimeout(tick, intervalMs).unref();
      });
  };
  timer = setTimeout(tick, intervalMs).unref();
  return {
    write,
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await running.catch(() => {});
    },
  };
}

function writingFileOf(stateFile: string): string {
  return `${stateFile}.writing`;
}

/** Writes `data` beside `stateFile`, flushed to disk, then renamed over it: whole or not at all. */
async function writeWhole(stateFile: string, data: string | Buffer): Promise<void> {
  const writing = writingFileOf(stateFile);
  const file = await open(writing, "w");
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(writing, stateFile);
}

async function rpc<T>(rpcUrl: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(60_000),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error || body.result === undefined) {
    throw new Error(`${method}: ${body.error?.message ?? "no result"}`);
  }
  return body.result;
}
