/**
 * What of an earlier `pnpm start` still runs, so that a start refuses, naming it, before it
 * touches any data: the earlier start itself, or one of its parts (chain, indexer, API) still
 * running on the data folder after the start was killed (each part runs in a process group of
 * its own, and is stopped by devkit's guardian within seconds: until then it still writes the
 * chain's state, or holds the indexer's schema), or anything listening on a port this start needs.
 *
 * The run marker (running.json) records the start's pid and each part's as it starts, with its
 * command line: a pid still counts as that process only while /proc/<pid>/cmdline reads the same
 * (where there is no /proc, while the pid is alive).
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { processAlive as alive, portAnswers } from "@collectibles/devkit/processes";
import type { LocalData } from "./localData.ts";

export interface RunningProcess {
  name: string;
  pid: number;
  command?: string;
}

interface Marker {
  pid: number;
  command?: string;
  startedAt?: string;
  parts?: RunningProcess[];
}

/** The process's command line, arguments joined by spaces, or undefined (gone, or no /proc). */
export function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return undefined;
  }
}

/** Whether the recorded process still runs (and is still that process, not a reused pid). */
function stillRunning(part: RunningProcess): boolean {
  if (part.pid === process.pid || !alive(part.pid)) return false;
  const now = commandOf(part.pid);
  return part.command === undefined || now === undefined || now === part.command;
}

function readMarker(data: LocalData): Marker | undefined {
  if (!existsSync(data.marker)) return undefined;
  try {
    return JSON.parse(readFileSync(data.marker, "utf8")) as Marker;
  } catch {
    return undefined;
  }
}

/** This start's marker: its pid and command, no parts yet. */
export function writeMarker(data: LocalData): void {
  const marker: Marker = {
    pid: process.pid,
    command: commandOf(process.pid),
    startedAt: new Date().toISOString(),
    parts: [],
  };
  writeFileSync(data.marker, JSON.stringify(marker));
}

/** Adds a part this start runs on the data folder to its marker. */
export function recordPart(data: LocalData, name: string, pid: number): void {
  const marker = readMarker(data);
  if (!marker || marker.pid !== process.pid) return;
  marker.parts = [...(marker.parts ?? []), { name, pid, command: commandOf(pid) }];
  writeFileSync(data.marker, JSON.stringify(marker));
}

/** Why this start may not run on the data folder: what of an earlier start still runs there. */
export function earlierStackOn(data: LocalData): string | undefined {
  const marker = readMarker(data);
  if (!marker) return undefined;
  if (stillRunning({ name: "pnpm start", ...marker })) {
    return (
      `another pnpm start (pid ${marker.pid}) is running on ${data.dir}: stop it first, ` +
      "or give this one its own DATA_DIR"
    );
  }
  const left = (marker.parts ?? []).filter(stillRunning);
  if (left.length === 0) return undefined;
  const named = left.map((part) => `the ${part.name} (pid ${part.pid}: ${part.command ?? "?"})`);
  return (
    `${named.join(", ")} of an earlier pnpm start (pid ${marker.pid}, no longer running) still ` +
    `run${left.length === 1 ? "s" : ""} on ${data.dir}: wait until ${left.length === 1 ? "it ends" : "they end"} ` +
    `or stop ${left.length === 1 ? "it" : "them"} (kill ${left.map((part) => part.pid).join(" ")}), then start again`
  );
}

/** The socket inodes listening on `port` (Linux: /proc/net/tcp and tcp6). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let table: string;
    try {
      table = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of table.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // Local address, state (0A: LISTEN), inode.
      if (fields[3] !== "0A" || fields[9] === undefined) continue;
      if (Number.parseInt(fields[1]?.split(":")[1] ?? "", 16) === port) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** The process listening on `port`, where /proc says (Linux, and a process this user may see). */
export function portHolder(port: number): RunningProcess | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${entry}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) {
        const pid = Number(entry);
        return { name: "process", pid, command: commandOf(pid) };
      }
    }
  }
  return undefined;
}

/** The first of `ports` something already listens on, named with what holds it. */
export async function portTaken(ports: [string, number][]): Promise<string | undefined> {
  for (const [variable, port] of ports) {
    if (!(await portAnswers(port))) continue;
    const holder = portHolder(port);
    const who = holder ? `pid ${holder.pid} (${holder.command ?? "?"})` : "another program";
    return `port ${port} (${variable}) is taken by ${who}: stop it, or set ${variable} to a free port`;
  }
  return undefined;
}
