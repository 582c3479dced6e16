/**
 * CPU time per process during a load, read from /proc: utime + stime of every live process of
 * a tree, plus the children's time each of them has reaped (cutime + cstime), so a worker that
 * came and went is still counted once. Divided by the claims confirmed or the requests answered,
 * it says where the machine's CPU went per claim or per request.
 */
import { readFileSync } from "node:fs";
import { processTable, treeOf } from "./proc.ts";

/** Kernel clock ticks per second (`getconf CLK_TCK`; 100 on every Linux Node supports). */
const TICKS_PER_SECOND = 100;

function cpuMillisOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0; // exited while we looked
  }
}

/** Who is watched: a root pid, with its descendants. */
export type Watched = { pid: number };

/** CPU milliseconds used so far by each watched group. */
export function treesCpu(watched: Record<string, Watched>): Record<string, number> {
  const table = processTable();
  const snapshot: Record<string, number> = {};
  for (const [name, who] of Object.entries(watched)) {
    snapshot[name] = treeOf(who.pid, table).reduce((sum, pid) => sum + cpuMillisOf(pid), 0);
  }
  return snapshot;
}

/** CPU milliseconds used so far by each watched group, and by this process itself. */
export function cpuSnapshot(watched: Record<string, Watched>): Record<string, number> {
  const snapshot = treesCpu(watched);
  const own = process.cpuUsage();
  snapshot["load generator"] = (own.user + own.system) / 1000;
  return snapshot;
}

/** CPU milliseconds per claim of each group between two snapshots, and their sum. */
export function cpuPerClaim(
  before: Record<string, number>,
  after: Record<string, number>,
  claims: number,
): Record<string, number> {
  const perClaim: Record<string, number> = {};
  let total = 0;
  for (const [name, end] of Object.entries(after)) {
    const ms = (end - (before[name] ?? 0)) / Math.max(1, claims);
    perClaim[name] = Math.round(ms * 100) / 100;
    total += ms;
  }
  perClaim.total = Math.round(total * 100) / 100;
  return perClaim;
}
