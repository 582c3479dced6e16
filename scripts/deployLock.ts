/**
 * One `pnpm start` of a checkout deploys at a time. Ignition builds the contracts before every
 * deployment, and Hardhat writes its compile cache through one temporary file
 * (`deploy/cache/compile-cache.json.tmp`, renamed into place): two stacks of one checkout
 * deploying at once (two data folders) made one fail with ENOENT on that rename. The lock is a
 * file holding its owner's pid: one left by a killed start is taken over.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { processAlive } from "@collectibles/devkit/processes";

/** A lock file still empty after this long lost its owner between creating and writing it. */
const EMPTY_LOCK_STALE_MS = 5_000;

/** Runs `work` holding the lock `file`, waiting while another live process holds it. */
export async function whileHoldingLock<T>(
  file: string,
  work: () => Promise<T>,
  onWait: () => void,
): Promise<T> {
  let waited = false;
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (abandoned(file)) {
      rmSync(file, { force: true });
      continue;
    }
    if (!waited) onWait();
    waited = true;
    await sleep(250);
  }
  try {
    return await work();
  } finally {
    rmSync(file, { force: true });
  }
}

function abandoned(file: string): boolean {
  try {
    const owner = Number(readFileSync(file, "utf8"));
    if (owner > 0) return !processAlive(owner);
    return Date.now() - statSync(file).mtimeMs > EMPTY_LOCK_STALE_MS;
  } catch {
    // Removed by its owner meanwhile: try again.
    return false;
  }
}
