/**
 * Memory of the whole stack, sampled from /proc: for each part (the API, PostgreSQL, the indexer,
 * the chain) the processes of its tree, RSS and PSS summed, the peak kept per phase for each part
 * and for the stack as a whole (all parts at the same instant).
 *
 * PSS (proportional set size) counts a page that n processes share as 1/n in each. PostgreSQL
 * runs a process per connection, each mapping the server's shared buffers: summed RSS counts
 * those pages once per process that touched them, summed PSS once in all. So the stack's figure
 * is PSS; RSS is kept beside it (and is what a single process's figure is compared by).
 */
import { readFileSync } from "node:fs";
import pg from "pg";
import { MiB, processTable, treeOf } from "./proc.ts";
import type { Row } from "./result.ts";

export interface Footprint {
  rss: number;
  pss: number;
}

/** RSS and PSS of one process in bytes (zeros once it is gone). */
export function footprintOf(pid: number): Footprint {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kB = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(rollup)?.[1] ?? 0) * 1024;
    return { rss: kB("Rss"), pss: kB("Pss") };
  } catch {
    return { rss: 0, pss: 0 };
  }
}

/** Peak footprint per phase, then per part and `stack` (the parts' sum at one instant). */
export type StackPeaks = Record<string, Record<string, Footprint>>;

export interface StackSampler {
  /** Starts a new phase: peaks from here on are kept under its name. */
  mark(phase: string): void;
  peaks(): StackPeaks;
  stop(): StackPeaks;
}

/**
 * Once a second, not more often: reading smaps_rollup makes the kernel walk each process's page
 * tables, on the cores the stack under measurement shares. Every 250 ms it cost the claims
 * benchmark's load generator 0.36 ms of CPU per claim, a third of its CPU (docs/performance.md,
 * "The benchmark's own cost").
 */
const SAMPLE_MS = 1000;

/**
 * Samples every `intervalMs` the trees rooted at `parts` (name -> root pid; an undefined one is
 * left out). Trees are looked up again each second: PostgreSQL starts a process per connection.
 */
export function sampleStack(
  parts: Record<string, number | undefined>,
  intervalMs = SAMPLE_MS,
): StackSampler {
  const peaks: StackPeaks = {};
  const trees: Record<string, number[]> = {};
  let phase = "start";
  let ticks = 0;
  const keep = (byPart: Record<string, Footprint>, name: string, now: Footprint) => {
    const peak = byPart[name] ?? { rss: 0, pss: 0 };
    byPart[name] = { rss: Math.max(peak.rss, now.rss), pss: Math.max(peak.pss, now.pss) };
  };
  const sample = () => {
    if (ticks++ % Math.max(1, Math.round(1000 / intervalMs)) === 0) {
      const table = processTable();
      for (const [name, pid] of Object.entries(parts)) {
        if (pid !== undefined) trees[name] = treeOf(pid, table);
      }
    }
    const byPart = peaks[phase] ?? {};
    peaks[phase] = byPart;
    const stack = { rss: 0, pss: 0 };
    for (const [name, tree] of Object.entries(trees)) {
      const now = { rss: 0, pss: 0 };
      for (const pid of tree) {
        const { rss, pss } = footprintOf(pid);
        now.rss += rss;
        now.pss += pss;
      }
      keep(byPart, name, now);
      stack.rss += now.rss;
      stack.pss += now.pss;
    }
    keep(byPart, "stack", stack);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    mark(next) {
      sample();
      phase = next;
    },
    peaks: () => peaks,
    stop() {
      clearInterval(timer);
      sample();
      return peaks;
    },
  };
}

/** The largest peak of each part over several phases. */
export function peakOver(peaks: StackPeaks, phases: string[]): Record<string, Footprint> {
  const over: Record<string, Footprint> = {};
  for (const phase of phases) {
    for (const [name, { rss, pss }] of Object.entries(peaks[phase] ?? {})) {
      const peak = over[name] ?? { rss: 0, pss: 0 };
      over[name] = { rss: Math.max(peak.rss, rss), pss: Math.max(peak.pss, pss) };
    }
  }
  return over;
}

/** The whole stack (API, PostgreSQL, indexer and chain) is to fit in 1 GiB. */
export const GOAL_STACK_MIB = 1024;

/**
 * Rows for the indexer, the chain, PostgreSQL and the whole stack at their peak `during` a load
 * (named by `when`, e.g. "under list load"), each beside its peak while `idle` before it. A Node
 * process's or anvil's own memory is its RSS; PostgreSQL's processes share the server's buffers,
 * so theirs and the whole stack's are PSS. The API's row is the benchmark's own (its baseline
 * differs).
 */
export function stackRows(
  during: Record<string, Footprint>,
  idle: Record<string, Footprint>,
  when: string,
): Row[] {
  const mib = (bytes: number) => Math.round(bytes / MiB);
  const row = (name: string, part: string, measure: keyof Footprint): Row[] => {
    const peak = during[part];
    if (!peak) return [];
    return [
      {
        name: `${name} ${when}`,
        unit: "MiB",
        figure: mib(peak[measure]),
        baseline: { name: "idle before", value: mib(idle[part]?.[measure] ?? 0) },
      },
    ];
  };
  const counted = during.postgres !== undefined;
  const stack = mib(during.stack?.pss ?? 0);
  return [
    ...row("peak RSS of the indexer (Ponder)", "indexer", "rss"),
    ...row("peak RSS of the chain (anvil)", "chain", "rss"),
    ...row("peak PSS of every PostgreSQL process", "postgres", "pss"),
    {
      name: `whole stack (API, ${counted ? "PostgreSQL" : "not PostgreSQL: not on this machine"}, indexer, chain): peak PSS ${when}`,
      unit: "MiB",
      figure: stack,
      baseline: { name: "idle before", value: mib(idle.stack?.pss ?? 0) },
      goal: `<= ${GOAL_STACK_MIB} MiB`,
      goalValue: GOAL_STACK_MIB,
      // Without PostgreSQL's processes the figure cannot say whether the stack fits.
      ...(counted ? { met: stack <= GOAL_STACK_MIB } : {}),
    },
  ];
}

/** What the memory figures are, for a benchmark's notes. */
export const STACK_MEMORY_NOTE =
  "Memory: the processes of each part (the API; the postmaster and every process under it; " +
  "the indexer; anvil) sampled every second from /proc (smaps_rollup), the stack's figure " +
  "summed at one instant. A single process's figure is its RSS. PostgreSQL's and the whole " +
  "stack's are PSS, which counts a page shared by n processes as 1/n in each: the server's " +
  "shared buffers, mapped by each connection's process, once in all rather than once per process.";

/**
 * The pid of the PostgreSQL server (its postmaster) that `url` reaches, when it runs on this
 * machine: the parent of the backend serving this connection. Undefined for a server elsewhere.
 */
export async function postmasterPid(url: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
    const stat = readFileSync(`/proc/${rows[0]?.pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    // A backend's parent is the postmaster, whose command is the server's binary.
    return readFileSync(`/proc/${ppid}/cmdline`, "utf8").includes("postgres") ? ppid : undefined;
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}
