/**
 * What a process allocates, garbage included: V8's sampling heap profiler, started when this
 * module is preloaded and written when the process exits, as
 * `<tmpdir>/allocations-<pid>.heapprofile` (Chrome DevTools opens it). Node's own `--heap-prof`
 * keeps only what is still alive at the end, which says nothing of what the garbage collector
 * spends its time on. For the API in a benchmark (the benchmark passes it no environment):
 *
 *   BENCH_API_NODE_ARGS="--import $PWD/bench/lib/allocationProfile.ts" pnpm bench claims --out=DIR
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import os from "node:os";
import path from "node:path";

const session = new Session();
session.connect();
session.post("HeapProfiler.startSampling", {
  samplingInterval: 32 * 1024,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
// A session of this thread answers at once, so the profile can still be written on exit.
process.on("exit", () => {
  session.post("HeapProfiler.getSamplingProfile", (error, result) => {
    if (error) return;
    const file = path.join(os.tmpdir(), `allocations-${process.pid}.heapprofile`);
    writeFileSync(file, JSON.stringify(result.profile));
  });
});
