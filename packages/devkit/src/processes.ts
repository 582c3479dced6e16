/**
 * The one way this repository runs long-lived child processes (the local chain, the indexer, the
 * API) for `pnpm start`, the tests and the benchmarks: each in its own process group, its output
 * kept (a tail for error messages, optionally a log file and a line callback), waited for until
 * it prints a line or answers, and stopped with its signal, then SIGKILL after a grace period.
 *
 * Every group still running is killed when this process exits, however it exits (SIGKILL
 * included: see guardian.ts), so a failed or timed-out test, or a killed `pnpm start`, never
 * leaves a chain or an indexer behind.
 */
import { execFileSync, type Serializable, spawn } from "node:child_process";
import { createWriteStream, readFileSync, realpathSync, type WriteStream } from "node:fs";
import net, { type AddressInfo } from "node:net";
import { guardGroup, releaseGroup } from "./guardian.ts";

export { guardianPid } from "./guardian.ts";

/**
 * Node flags for a child that loads thousands of dependency files (the API, Ponder): Node is told
 * their module format once per package instead of working it out per file (moduleFormats.ts).
 * Each starts about a second sooner.
 */
export const KNOWN_MODULE_FORMATS = [
  "--import",
  new URL("./moduleFormats.ts", import.meta.url).href,
] as const;

export interface ProcessOptions {
  /** Names the process in messages ("chain", "indexer", "api"). */
  name: string;
  command: string;
  args: readonly string[];
  cwd?: string;
  /** The child's whole environment; defaults to this process's. */
  env?: NodeJS.ProcessEnv;
  /** Also write everything it prints to this file. */
  logFile?: string;
  /** Called with each line it prints. */
  onLine?: (line: string) => void;
  /** How `stop()` asks it to end (Ponder wants SIGINT). Default SIGTERM. */
  stopSignal?: NodeJS.Signals;
  /**
   * How the guardian asks it to end when this process dies without stopping it (guardian.ts):
   * at the same moment as everything else this process started. Default `stopSignal`.
   */
  orphanStopSignal?: NodeJS.Signals;
  /** Leave stdout unread: for a process whose stdout is a log firehose (a server under load). */
  discardStdout?: boolean;
  /** Open a message channel (`process.send` in a Node child); read with `nextMessage`. */
  ipc?: boolean;
  /** Run as this user and group (a root process starting a server that refuses root). */
  uid?: number;
  gid?: number;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StopResult extends Exit {
  /** True when it had to be killed after the grace period. */
  forced: boolean;
}

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  /** Resolves when the process exits. */
  readonly exited: Promise<Exit>;
  running(): boolean;
  /** The last output, for failure messages. */
  tail(): string;
  /** Resolves with the first line matching `pattern`; rejects if it exits or time runs out. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** Resolves once `check` answers true; rejects (with the output tail) if it exits first. */
  waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void>;
  /** Asks it to stop, kills the whole group after `graceMs`, and resolves once it is gone. */
  stop(graceMs?: number): Promise<StopResult>;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) the whole group: a stall, for fault tests. */
  pause(): void;
  resume(): void;
  /** The next message the child sends over its channel (with `ipc`). */
  nextMessage(timeoutMs: number): Promise<unknown>;
  /** Sends the child a message over its channel (with `ipc`). */
  send(message: unknown): void;
}

const TAIL_CHARS = 12_000;
const tracked = new Set<number>();
let cleanupInstalled = false;

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Whether the process `pid` still runs (a negative pid: any process of that group). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group still runs. */
const groupAlive = (pid: number) => processAlive(-pid);

/** Kills every process group started here that still runs (e.g. in a test's `afterAll`). */
export function killAllProcesses(): void {
  for (const pid of tracked) signalGroup(pid, "SIGKILL");
  tracked.clear();
}

let killOnSignal = true;

/**
 * For a program that stops its processes itself on SIGINT/SIGTERM/SIGHUP (gracefully, in order,
 * as `pnpm start` does): a signal no longer kills them at once. They are still killed when this
 * process exits.
 */
export function stopProcessesYourselfOnSignals(): void {
  killOnSignal = false;
}

function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on("exit", killAllProcesses);
  // A test runner ends its workers with a signal, and "exit" handlers do not run then.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = () => {
      if (!killOnSignal) return;
      killAllProcesses();
      // Keep the default behaviour (exit by that signal) unless someone else handles it.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

export function startProcess(options: ProcessOptions): ManagedProcess {
  const child = spawn(options.command, [...options.args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    uid: options.uid,
    gid: options.gid,
    // Its own process group: stopping it stops everything it started.
    detached: true,
    stdio: [
      "ignore",
      options.discardStdout ? "ignore" : "pipe",
      "pipe",
      ...(options.ipc ? (["ipc"] as const) : []),
    ],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${options.name} (${options.command})`);
  installCleanup();
  tracked.add(pid);
  guardGroup(pid, options.orphanStopSignal ?? options.stopSignal ?? "SIGTERM");

  let tail = "";
  const lineWaiters = new Set<{ pattern: RegExp; resolve(line: string): void }>();
  const log: WriteStream | undefined = options.logFile
    ? createWriteStream(options.logFile, { flags: "a" })
    : undefined;
  const onLine = (line: string) => {
    options.onLine?.(line);
    for (const waiter of lineWaiters) {
      if (waiter.pattern.test(line)) {
        lineWaiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  };
  // Lines are cut per stream, so stdout and stderr never splice into one line.
  for (const stream of [child.stdout, child.stderr]) {
    let partial = "";
    stream?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      log?.write(chunk);
      tail = (tail + text).slice(-TAIL_CHARS);
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) onLine(line);
    });
    stream?.on("end", () => {
      if (partial) onLine(partial);
    });
  }
  // A caller that forgets stop() must not keep its own process alive; the exit hook still kills.
  child.unref();
  for (const stream of [child.stdout, child.stderr])
    (stream as { unref?(): void } | null)?.unref?.();

  const exited = new Promise<Exit>((resolve) => {
    // "close": the process has exited and its output streams are read to the end.
    child.once("close", (code, signal) => {
      tracked.delete(pid);
      releaseGroup(pid);
      log?.end();
      resolve({ code, signal });
    });
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const failure = (what: string) =>
    new Error(`${options.name} ${what}. Its last output:\n${tail.slice(-4_000)}`);

  let stopping: Promise<StopResult> | undefined;
  return {
    name: options.name,
    pid,
    exited,
    running,
    tail: () => tail,
    waitForLine(pattern, timeoutMs) {
      return new Promise<string>((resolve, reject) => {
        const waiter = { pattern, resolve: done };
        const timer = setTimeout(() => {
          lineWaiters.delete(waiter);
          reject(failure(`printed no line matching ${pattern} within ${timeoutMs} ms`));
        }, timeoutMs);
        function done(line: string) {
          clearTimeout(timer);
          resolve(line);
        }
        lineWaiters.add(waiter);
        void exited.then((exit) => {
          if (!lineWaiters.delete(waiter)) return;
          clearTimeout(timer);
          reject(failure(`exited (${exit.signal ?? exit.code}) before printing ${pattern}`));
        });
      });
    },
    async waitUntil(what, check, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (!running()) throw failure(`exited before ${what}`);
        if (await check().catch(() => false)) return;
        if (Date.now() > deadline) throw failure(`was not ${what} after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        signalGroup(pid, "SIGCONT");
        signalGroup(pid, options.stopSignal ?? "SIGTERM");
        const deadline = Date.now() + graceMs;
        let grace: NodeJS.Timeout | undefined;
        const timer = new Promise<"timeout">((resolve) => {
          grace = setTimeout(resolve, graceMs, "timeout");
        });
        let forced = (await Promise.race([exited, timer])) === "timeout";
        // A process that exited in time must not leave its grace timer holding the caller open.
        clearTimeout(grace);
        // A wrapper (pnpm, a shell) exits at once on the signal while what it runs is still
        // shutting down (Ponder releasing its schema lock): wait for the whole group, within the
        // same grace, before killing what is left of it.
        while (!forced && groupAlive(pid) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        if (groupAlive(pid)) {
          forced = true;
          signalGroup(pid, "SIGKILL");
        }
        return { ...(await exited), forced };
      })();
      return stopping;
    },
    pause: () => signalGroup(pid, "SIGSTOP"),
    resume: () => signalGroup(pid, "SIGCONT"),
    send(message) {
      if (!options.ipc) throw new Error(`${options.name} was started without a message channel`);
      child.send(message as Serializable);
    },
    nextMessage(timeoutMs) {
      if (!options.ipc) throw new Error(`${options.name} was started without a message channel`);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          child.off("message", onMessage);
          reject(failure(`sent no message within ${timeoutMs} ms`));
        }, timeoutMs);
        function onMessage(message: unknown) {
          clearTimeout(timer);
          resolve(message);
        }
        child.once("message", onMessage);
        void exited.then((exit) => {
          if (!child.listeners("message").includes(onMessage)) return;
          clearTimeout(timer);
          child.off("message", onMessage);
          reject(failure(`exited (${exit.signal ?? exit.code}) before sending a message`));
        });
      });
    },
  };
}

export interface RunResult extends Exit {
  output: string;
}

/** Runs a command to its end and answers its exit and output; `timeoutMs` kills the group. */
export async function runToEnd(
  options: Omit<ProcessOptions, "stopSignal"> & { timeoutMs: number },
): Promise<RunResult> {
  let output = "";
  const child = startProcess({
    ...options,
    onLine: (line) => {
      output += `${line}\n`;
      options.onLine?.(line);
    },
  });
  const timer = setTimeout(() => void child.stop(2_000), options.timeoutMs);
  const exit = await child.exited;
  clearTimeout(timer);
  return { ...exit, output };
}

/** The port a variable names, or its default; throws naming the variable when it is no port. */
export function portFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 1 && port <= 65_535)) {
    throw new Error(`${name} must be a port number from 1 to 65535, got "${text}"`);
  }
  return port;
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections on `host:port`. */
export function portAnswers(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(1_000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Whether `url` answers 2xx within two seconds. */
export async function httpAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** The sockets listening on `port` (Linux: /proc/net/tcp and tcp6): each one's address and inode. */
export function listeningSockets(port: number): { address: string; inode: string }[] {
  const found: { address: string; inode: string }[] = [];
  for (const [file, v6] of [
    ["/proc/net/tcp", false],
    ["/proc/net/tcp6", true],
  ] as const) {
    let table: string;
    try {
      table = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of table.split("\n").slice(1)) {
      // Local address, state (0A: LISTEN), inode.
      const fields = line.trim().split(/\s+/);
      const [local, state, inode] = [fields[1], fields[3], fields[9]];
      if (!local || state !== "0A" || inode === undefined) continue;
      const [hex, portHex] = local.split(":");
      if (Number.parseInt(portHex ?? "", 16) !== port || !hex) continue;
      found.push({ address: v6 ? ipv6Of(hex) : ipv4Of(hex), inode });
    }
  }
  return found;
}

/**
 * The addresses something listens on at `port` on this machine, as `127.0.0.1`, `0.0.0.0`,
 * `::`, `::1`…: what a test checks to know who can connect.
 */
export function listeningAddresses(port: number): string[] {
  return listeningSockets(port).map((socket) => socket.address);
}

/** /proc's little-endian hex of an IPv4 address. */
function ipv4Of(hex: string): string {
  return [6, 4, 2, 0].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(".");
}

/** /proc's hex of an IPv6 address (four little-endian words), in short form for the common ones. */
function ipv6Of(hex: string): string {
  const bytes = (hex.match(/.{8}/g) ?? []).flatMap((word) => (word.match(/../g) ?? []).reverse());
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(Number.parseInt(`${bytes[i]}${bytes[i + 1]}`, 16));
  if (groups.every((group) => group === 0)) return "::";
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return "::1";
  return groups.map((group) => group.toString(16)).join(":");
}

let pnpmScript: string | undefined;

/**
 * pnpm's own script (pnpm.cjs), to run a root script as a user does (`node <it> start`): the pnpm
 * running this process, else the pinned one from npx.
 */
export function pnpmCli(): string {
  const running = process.env.npm_execpath;
  if (running?.includes("pnpm")) return running;
  pnpmScript ??= realpathSync(
    execFileSync("npx", ["-y", "-p", "pnpm@10.34.9", "sh", "-c", "command -v pnpm"], {
      encoding: "utf8",
    }).trim(),
  );
  return pnpmScript;
}
