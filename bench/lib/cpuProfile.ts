/**
 * A V8 CPU profile (`node --cpu-prof`) summarised as the functions with the most self time, the
 * form a report can show: which code the process was running, not who called it. Idle time is
 * left out, so the percentages are of the time the process was busy.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  /** `function (file:line)`, the file relative to the repository or a package name. */
  where: string;
  ms: number;
  percent: number;
}

/** Where a frame's code lives, short: a workspace path, `pkg/…` for a dependency, or `node:`. */
function shortUrl(url: string): string {
  if (!url) return "";
  const dependency =
    /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (dependency) return `${dependency[1]}/${dependency[2]}`;
  return url.replace(/^file:\/\/.*?\/(packages|bench|deploy|contracts)\//, "$1/");
}

/** The `top` functions by self time in every profile of `dir` (one per process that exited). */
export function topSelfTime(dir: string, top = 15): { totalMs: number; rows: SelfTime[] } {
  const byWhere = new Map<string, number>();
  let totalMs = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Profile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const frame = nodes.get(id)?.callFrame;
      // Time the process spent waiting is not a function's cost.
      if (!frame || frame.functionName === "(idle)") return;
      const name = frame.functionName || "(anonymous)";
      const url = shortUrl(frame.url);
      const where = url ? `${name} (${url}:${frame.lineNumber + 1})` : name;
      byWhere.set(where, (byWhere.get(where) ?? 0) + ms);
      totalMs += ms;
    });
  }
  const rows = [...byWhere.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([where, ms]) => ({
      where,
      ms: Math.round(ms),
      percent: Math.round((ms / Math.max(1, totalMs)) * 1000) / 10,
    }));
  return { totalMs: Math.round(totalMs), rows };
}

/**
 * A profile of `name`'s API as one report note: how long was sampled (`included` says what the
 * whole run held besides the measurement), then its top functions.
 */
export function profileNote(
  name: string,
  included: string,
  profile: { totalMs: number; rows: SelfTime[] },
): string {
  const top = profile.rows.map((r) => `${r.where} ${r.ms} ms (${r.percent} %)`).join("; ");
  const sampled = `${(profile.totalMs / 1000).toFixed(1)} s sampled`;
  return (
    `${name}: the API's CPU profile (--cpu-prof over its whole run, ${included} included; ` +
    `${sampled}), top functions by self time: ${top}.`
  );
}
