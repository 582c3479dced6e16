/**
 * A lock file holding the owner's process id, so two processes (say the API and the key CLI)
 * never open the same embedded database folder at once. A lock left by a dead process is taken
 * over.
 */
import fs from "node:fs";

export interface DirLock {
  release(): void;
}

const heldHere = new Set<string>();

export class DirLockedError extends Error {
  override name = "DirLockedError";
}

export function acquireDirLock(lockPath: string, what: string): DirLock {
  if (heldHere.has(lockPath)) {
    throw new DirLockedError(`${what} is already open in this process (${lockPath})`);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx", mode: 0o600 });
      heldHere.add(lockPath);
      return {
        release() {
          if (!heldHere.delete(lockPath)) return;
          fs.rmSync(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number.parseInt(fs.readFileSync(lockPath, "utf8"), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new DirLockedError(
          `${what} is in use by process ${owner} (lock file ${lockPath}). Stop that process ` +
            "first, or set DATABASE_URL to share a PostgreSQL database between processes.",
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DirLockedError(`Could not lock ${what} (${lockPath})`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
