/**
 * What of an earlier `pnpm start` still runs, so that a start refuses, naming it, before it
 * touches any data: the earlier start itself, or one of its parts (chain, indexer, API) still
 * running on the data folder after the start was killed (each part runs in a process group of
 * its own, and is stopped by devkit's guardian within seconds: until then it still writes the
 * chain's state, or holds the indexer's schema), or anything listening on a port this start needs.
 *
 * The run marker (running.json) records the start's pid and each part's as it starts, with its
 * command line: a pid still counts as that process only while /proc/<pid>/cmdline reads the same
 * (where there is no /proc, while the pid is alive). It also records the guardian's: while the
 * guardian of a killed start still runs, it is stopping the parts, and a new start waits for it
 * (a supervisor restarting at once after a kill would otherwise be refused).
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import {
  processAlive as alive,
  guardianPid,
  listeningSockets,
  portAnswers,
} from "@collectibles/devkit/processes";

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
  /** Devkit's guardian, which stops the parts when the start dies (see guardian.ts). */
  guardian?: RunningProcess;
}

/** The process's command line, arguments joined by spaces, or undefined (gone, or no /proc). */
export function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return undefined;
  }
}

/** A data folder, and where it keeps the marker of the stack running on it (`localData.ts`). */
interface StackMarker {
  dir: string;
  marker: string;
}

/** Whether the recorded process still runs (and is still that process, not a reused pid). */
function stillRunning(part: RunningProcess): boolean {
  if (part.pid === process.pid || !alive(part.pid)) return false;
  const now = commandOf(part.pid);
  return part.command === undefined || now === undefined || now === part.command;
}

function readMarker(data: StackMarker): Marker | undefined {
  if (!existsSync(data.marker)) return undefined;
  try {
    return JSON.parse(readFileSync(data.marker, "utf8")) as Marker;
  } catch {
    return undefined;
  }
}

/** This start's marker: its pid and command, no parts yet. */
export function writeMarker(data: StackMarker): void {
  const marker: Marker = {
    pid: process.pid,
    command: commandOf(process.pid),
    startedAt: new Date().toISOString(),
    parts: [],
  };
  writeFileSync(data.marker, JSON.stringify(marker));
}

/** Adds a part this start runs on the data folder to its marker. */
export function recordPart(data: StackMarker, name: string, pid: number): void {
  const marker = readMarker(data);
  if (!marker || marker.pid !== process.pid) return;
  marker.parts = [...(marker.parts ?? []), { name, pid, command: commandOf(pid) }];
  const guardian = guardianPid();
  if (guardian !== undefined && !marker.guardian) {
    marker.guardian = { name: "guardian", pid: guardian, command: commandOf(guardian) };
  }
  writeFileSync(data.marker, JSON.stringify(marker));
}

/** How long a killed start's guardian may take to stop its parts: its grace, and some more. */
const GUARDIAN_STOP_MS = 20_000;

/**
 * Waits while the parts of a killed earlier start are being stopped by its guardian, saying so,
 * for at most GUARDIAN_STOP_MS: the refusal `earlierStackOn` words is then only for parts that
 * nothing stops (a crash that took the guardian too).
 */
export async function waitForStoppingParts(
  data: StackMarker,
  log: (line: string) => void,
): Promise<void> {
  const marker = readMarker(data);
  if (!marker?.guardian || stillRunning({ name: "pnpm start", ...marker })) return;
  const stopping = () =>
    marker.guardian && stillRunning(marker.guardian)
      ? (marker.parts ?? []).filter(stillRunning)
      : [];
  const left = stopping();
  if (left.length === 0) return;
  const named = left.map((part) => `the ${part.name} (pid ${part.pid})`).join(", ");
  log(`the earlier pnpm start (pid ${marker.pid}) was killed; waiting while ${named} stop`);
  const deadline = Date.now() + GUARDIAN_STOP_MS;
  while (stopping().length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Why this start may not run on the data folder: what of an earlier start still runs there. */
export function earlierStackOn(data: StackMarker): string | undefined {
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

/** The process listening on `port`, where /proc says (Linux, and a process this user may see). */
export function portHolder(port: number): RunningProcess | undefined {
  const inodes = new Set(listeningSockets(port).map((socket) => socket.inode));
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
