/**
 * Bookkeeping for the long-running child processes tests start (Hardhat nodes, Ponder indexers):
 * each runs in its own process group, and every group still running is killed when this process
 * exits, however it exits, so a failed or timed-out test never leaves one behind.
 */
import { type AddressInfo, createServer } from "node:net";

const running = new Set<number>();
let cleanupInstalled = false;

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Kills every tracked group now (e.g. in `afterAll`, for a start whose test timed out). */
export function killAllTracked(): void {
  for (const pid of running) killGroup(pid, "SIGKILL");
  running.clear();
}

function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on("exit", () => {
    for (const pid of running) killGroup(pid, "SIGKILL");
  });
  // A test runner ends its workers with a signal, and "exit" handlers do not run then.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = () => {
      killAllTracked();
      // Keep the default behaviour (exit by that signal) unless someone else handles it.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

/** Starts tracking a process group (the pid of a child spawned with `detached: true`). */
export function trackGroup(pid: number): void {
  installCleanup();
  running.add(pid);
}

export function untrackGroup(pid: number): void {
  running.delete(pid);
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
