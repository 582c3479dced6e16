/**
 * Resident memory of a few known processes, sampled from /proc: VmRSS of each process and its
 * descendants every `intervalMs`, the peak kept per phase (`mark` starts one), and VmHWM (the
 * kernel's own lifetime peak) when asked.
 */
import { statusBytes, treeOf } from "../lib/proc.ts";

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
      const rss = tree.reduce((sum, pid) => sum + statusBytes(pid, "VmRSS"), 0);
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
        Object.entries(pids).map(([name, pid]) => [name, statusBytes(pid, "VmHWM")]),
      ),
    stop() {
      sample();
      clearInterval(timer);
    },
  };
}
