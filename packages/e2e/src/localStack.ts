/**
 * `pnpm start` as a user runs it (`node scripts/start.ts` with the user's environment), on ports
 * and a data folder of the test's choosing, and the ways a user ends it: Ctrl-C (SIGINT), or a
 * crash that kills every one of its processes at once (SIGKILL), or all but some of them.
 */

import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type Exit,
  freePort,
  type ManagedProcess,
  pnpmCli,
  type RunResult,
  runToEnd,
  startProcess,
} from "@collectibles/devkit/processes";

/** The repository's root, where a user runs the README's commands. */
export const root = path.resolve(import.meta.dirname, "../../..");
/** Every start's output, kept for a post-mortem (and as a CI artifact). */
export const logDir = path.resolve(import.meta.dirname, "../test-results");
let starts = 0;

export interface StackOptions {
  dataDir: string;
  /** Added to this process's environment (DATABASE_URL, API_KEY, …). */
  env?: Record<string, string>;
  /** Arguments after `pnpm start` (`--fresh`). */
  args?: string[];
  ports?: StackPorts;
  /** Run as `pnpm start` (through pnpm, as the README says) instead of `node scripts/start.ts`. */
  viaPnpm?: boolean;
}

export interface StackPorts {
  api: number;
  chain: number;
  indexer: number;
  /** The embedded PostgreSQL's (DB_PORT); unused with DATABASE_URL. */
  database: number;
}

/**
 * The embedded PostgreSQL's processes, as /proc/<pid>/cmdline reads (arguments split by NUL):
 * the server (its binary, `…/bin/postgres`) and the processes it forks, which rename themselves
 * `postgres: checkpointer`, `postgres: collectibles collectibles 127.0.0.1(…) idle`, …
 */
export const POSTGRES_PROCESSES = /^(?:[^\0]*\/)?postgres(?:\0|:)/;

export interface RunningStack {
  apiUrl: string;
  indexerUrl: string;
  rpcUrl: string;
  ports: StackPorts;
  process: ManagedProcess;
  /** Every line `pnpm start` printed so far (its own and its services'). */
  lines: string[];
  /** The API key printed on a first start, if one was. */
  printedKey(): string | undefined;
  /** SIGINT to `pnpm start` alone: resolves once everything stopped. */
  stop(): Promise<void>;
  /** Ctrl-C in its terminal: SIGINT to its whole process group. Answers how it exited. */
  ctrlC(): Promise<Exit>;
  /**
   * Every process of the stack killed at once with SIGKILL, as a power cut would; with `spare`,
   * every one but those whose /proc/<pid>/cmdline matches (left running, as orphans).
   */
  crash(options?: { spare?: RegExp }): void;
  /**
   * SIGKILL to `pnpm start`'s process group only, as a closed terminal or a supervisor giving up
   * would: the parts it started each run in a group of their own.
   */
  killGroup(): void;
  /** The pids of `pnpm start` and every process below it, now. */
  processes(): number[];
  /** The pid of the stack's process whose command line matches (the chain: /anvil/). */
  pidOf(command: RegExp): number | undefined;
}

const running = new Set<RunningStack>();
/** Processes a crash spared, with their command lines: orphans once their stack is gone. */
const spared = new Map<number, string>();

/** Kills whatever a test left running (its stacks' every process, and what crashes spared). */
export function killStacks(): void {
  for (const stack of running) stack.crash();
  running.clear();
  for (const [pid, command] of spared) {
    // Only if the pid is still that process, not one that got its number since.
    if (commandLine(pid) === command) kill(pid);
  }
  spared.clear();
}

/**
 * A new data folder under the system's temp folder, that others may pass through (0711) but not
 * list: mkdtemp makes it 0700, and as root `pnpm start` runs PostgreSQL as the `postgres`
 * account, which must reach `<folder>/postgres` (itself 0700, the server's own).
 */
export function dataFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  chmodSync(dir, 0o711);
  return dir;
}

export async function freePorts(): Promise<StackPorts> {
  // Each is free when asked for, but a port just released may be handed out again: one stack got
  // the same port for its API and its indexer. Draw until all four differ.
  const ports = new Set<number>();
  while (ports.size < 4) ports.add(await freePort());
  const [api, chain, indexer, database] = [...ports] as [number, number, number, number];
  return { api, chain, indexer, database };
}

/** What `pnpm start` is run with: the test's data folder and ports, then its own variables. */
function startCommand(options: StackOptions, ports: StackPorts) {
  mkdirSync(logDir, { recursive: true });
  const args = options.viaPnpm
    ? [pnpmCli(), "start", ...(options.args ?? [])]
    : ["scripts/start.ts", ...(options.args ?? [])];
  return {
    logFile: path.join(logDir, `${path.basename(options.dataDir)}-${++starts}.log`),
    name: "pnpm start",
    command: process.execPath,
    args,
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: options.dataDir,
      PORT: String(ports.api),
      CHAIN_PORT: String(ports.chain),
      INDEXER_PORT: String(ports.indexer),
      DB_PORT: String(ports.database),
      ...options.env,
    },
  };
}

/**
 * `pnpm start` run to its end, for starts that must refuse: its exit and everything it printed.
 * One that starts instead is stopped after `timeoutMs`.
 */
export async function runStart(
  options: StackOptions & { timeoutMs?: number },
): Promise<RunResult & { ports: StackPorts; tookMs: number }> {
  const ports = options.ports ?? (await freePorts());
  const startedAt = Date.now();
  const result = await runToEnd({
    ...startCommand(options, ports),
    timeoutMs: options.timeoutMs ?? 120_000,
  });
  return { ...result, ports, tookMs: Date.now() - startedAt };
}

/** Starts `pnpm start` and resolves once it prints that it is ready. */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const ports = options.ports ?? (await freePorts());
  const lines: string[] = [];
  const child = startProcess({
    ...startCommand(options, ports),
    onLine: (line) => lines.push(line),
  });
  const stack: RunningStack = {
    apiUrl: `http://127.0.0.1:${ports.api}`,
    indexerUrl: `http://127.0.0.1:${ports.indexer}`,
    rpcUrl: `http://127.0.0.1:${ports.chain}`,
    ports,
    process: child,
    lines,
    printedKey: () => lines.join("\n").match(/ck_live_[A-Za-z0-9]{24,}/)?.[0],
    async stop() {
      process.kill(child.pid, "SIGINT");
      await child.exited;
    },
    async ctrlC() {
      process.kill(-child.pid, "SIGINT");
      return child.exited;
    },
    pidOf(command: RegExp) {
      return descendantsOf(child.pid).find((pid) => command.test(commandLine(pid) ?? ""));
    },
    crash({ spare }: { spare?: RegExp } = {}) {
      // Deepest first, pnpm start itself last: all are gone before anything could see its death
      // and stop what was spared (devkit's guardian is among them).
      for (const pid of descendantsOf(child.pid).reverse()) {
        const command = commandLine(pid);
        if (spare && command !== undefined && spare.test(command)) {
          spared.set(pid, command);
          continue;
        }
        kill(pid);
      }
    },
    killGroup() {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    },
    processes: () => descendantsOf(child.pid),
  };
  running.add(stack);
  void child.exited.then(() => running.delete(stack));
  await child.waitForLine(/^\[start\] ready/, 300_000);
  return stack;
}

/** The process's arguments as /proc has them (split by NUL), or undefined once it is gone. */
function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return undefined;
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** `pid` and every process below it, read from /proc. */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // exited while we looked
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

/** HTTP to the stack's API with `key` as the Basic username. */
export function apiOf(stack: { apiUrl: string }, key: string) {
  const authorization = `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
  return async (method: string, urlPath: string, json?: unknown) => {
    const res = await fetch(stack.apiUrl + urlPath, {
      method,
      headers: {
        authorization,
        ...(json === undefined ? {} : { "content-type": "application/json" }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
    return { status: res.status, body: (await res.json()) as any };
  };
}
