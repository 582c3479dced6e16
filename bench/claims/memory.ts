/**
 * Resident memory of a few known processes, sampled from /proc: VmRSS of each process and its
 * descendants every `intervalMs`, the peak kept per phase (`mark` starts one), and VmHWM (the
 * kernel's own lifetime peak) when asked.
 */
import { readdirSync, readFileSync } from "node:fs";

function statusField(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every process as pid -> parent pid, with its command line. */
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
function treeOf(pid: number): number[] {
  const table = processTable();
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const p of table) if (p.ppid === tree[i]) tree.push(p.pid);
  }
  return tree;
}

export interface MemorySampler {
  mark(phase: string): void;
  /** Peak summed VmRSS per watched name and phase, in bytes. */
  peaks(): Record<string, Record<string, number>>;
  /** VmHWM of each watched root process (its lifetime peak), in bytes. */
  highWaterMarks(): Record<string, number>;
  stop(): void;
}

export function sampleMemory(pids: Record<string, number>, intervalMs = 200): MemorySampler {
  const peaks: Record<string, Record<string, number>> = {};
  const trees: Record<string, number[]> = {};
  let phase = "start";
  let ticks = 0;
  const sample = () => {
    // The process trees rarely change: look for new descendants once a second only.
    if (ticks++ % Math.max(1, Math.round(1000 / intervalMs)) === 0) {
      for (const [name, pid] of Object.entries(pids)) trees[name] = treeOf(pid);
    }
    for (const [name, tree] of Object.entries(trees)) {
      const rss = tree.reduce((sum, pid) => sum + statusField(pid, "VmRSS"), 0);
      const byPhase = peaks[name] ?? {};
      peaks[name] = byPhase;
      byPhase[phase] = Math.max(byPhase[phase] ?? 0, rss);
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    mark(next) {
      sample();
      phase = next;
    },
    peaks: () => peaks,
    highWaterMarks: () =>
      Object.fromEntries(
        Object.entries(pids).map(([name, pid]) => [name, statusField(pid, "VmHWM")]),
      ),
    stop() {
      sample();
      clearInterval(timer);
    },
  };
}
