/**
 * Child processes for the benchmarks: commands run through the repository's one process helper
 * (`@collectibles/devkit/processes`), and the memory of a process tree read from /proc.
 */
import { readdirSync, readFileSync } from "node:fs";
import { signalGroup, startProcess } from "@collectibles/devkit/processes";

/** How to run pnpm from inside a pnpm script (pnpm sets npm_execpath to itself), else npx. */
export function pnpmCommand(): { command: string; args: string[] } {
  const execPath = process.env.npm_execpath;
  if (execPath?.includes("pnpm")) return { command: process.execPath, args: [execPath] };
  return { command: "npx", args: ["-y", "pnpm@10.34.9"] };
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Called with each output line (stdout and stderr). */
  onLine?: (line: string) => void;
  /** Kill the process (group) after this long. */
  timeoutMs: number;
}

export interface Running {
  pid: number;
  done: Promise<{ code: number | null; output: string }>;
}

/** Runs a command in its own process group; `done` rejects on a non-zero exit or timeout. */
export function runCommand(command: string, args: string[], options: RunOptions): Running {
  let output = "";
  const child = startProcess({
    name: `${command} ${args.join(" ")}`,
    command,
    args,
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    onLine: (line) => {
      output += `${line}\n`;
      if (line.trim()) options.onLine?.(line);
    },
  });
  const done = (async () => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void child.stop(5_000);
    }, options.timeoutMs);
    const { code } = await child.exited;
    clearTimeout(timer);
    const what = `${command} ${args.join(" ")}`;
    if (timedOut) throw new Error(`${what} timed out after ${options.timeoutMs} ms`);
    if (code !== 0) throw new Error(`${what} exited with ${code}:\n${output.slice(-2000)}`);
    return { code, output };
  })();
  return { pid: child.pid, done };
}

export function killGroup(pid: number | undefined, signal: NodeJS.Signals = "SIGTERM"): void {
  if (pid) signalGroup(pid, signal);
}

/** A memory field of /proc/<pid>/status (VmRSS now, VmHWM the peak) in bytes; 0 when gone. */
export function statusBytes(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every process, with its parent pid and command line. */
export function processTable(): { pid: number; ppid: number; cmdline: string }[] {
  const table: { pid: number; ppid: number; cmdline: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      table.push({ pid: Number(entry), ppid, cmdline });
    } catch {
      // exited while we looked
    }
  }
  return table;
}

/** `pid` and every process below it. */
export function treeOf(pid: number, table = processTable()): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const p of table) if (p.ppid === tree[i]) tree.push(p.pid);
  }
  return tree;
}

/**
 * Samples, every `intervalMs`, the summed RSS of the descendants of `rootPid` whose command line
 * matches `pattern`, and keeps the peak per phase (`mark` starts a new phase).
 */
export function sampleTreeRss(rootPid: number, pattern: RegExp, intervalMs = 250) {
  return samplePeakRss(() => {
    const table = processTable();
    const tree = new Set(treeOf(rootPid, table));
    return table.filter((p) => tree.has(p.pid) && pattern.test(p.cmdline)).map((p) => p.pid);
  }, intervalMs);
}

/** `sampleTreeRss` of one process alone, not the processes it started. */
export function sampleProcessRss(pid: number, intervalMs = 250) {
  return samplePeakRss(() => [pid], intervalMs);
}

function samplePeakRss(pidsNow: () => number[], intervalMs: number) {
  const peaks: Record<string, number> = {};
  let phase = "all";
  const timer = setInterval(() => {
    let sum = 0;
    for (const pid of pidsNow()) sum += statusBytes(pid, "VmRSS");
    if (sum > 0) peaks[phase] = Math.max(peaks[phase] ?? 0, sum);
  }, intervalMs);
  return {
    mark(label: string): void {
      phase = label;
    },
    /** Peak bytes per phase (phases where no matching process ran are absent). */
    stop(): Record<string, number> {
      clearInterval(timer);
      return peaks;
    },
  };
}

export const MiB = 1024 * 1024;
