/**
 * `pnpm test`: builds, lints, type-checks, then runs every workspace package's test suite, all as
 * turbo tasks, so a package whose inputs did not change is replayed from turbo's cache instead of
 * run again. Ends with one line summing everything: `N passed, M failed`.
 *
 * The suites run in the order turbo.json's `^test` gives them: contracts, deploy, indexer, api,
 * client, e2e (packages/e2e/turbo.json puts it after the client). Two at a time where that order
 * lets them, which is devkit beside contracts: devkit's suite mostly waits on the processes it
 * starts (CI's two cores were 73 % idle during it). The others run alone: the API's keeps both
 * cores busy, and the client's beside e2e's made both longer than one after the other. Their
 * output streams as they run.
 *
 * Counts come from the runners' machine-readable reports in each package's test-results/
 * (vitest's json reporter; Hardhat's counts written by the contracts' test-report plugin), which
 * turbo caches with the run, so a replayed suite is counted from the report it restores. Lint and
 * type checks count as one test each. A suite that ended without a report, or whose task failed
 * while its report shows no failure (a crash after the runners finished), counts as one failure.
 * Exits non-zero when anything failed.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const pnpm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["pnpm"];
const turbo = ["exec", "turbo", "run"];
const REPORT_DIR = "test-results";

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

interface Row extends Counts {
  name: string;
  seconds: number;
  cached: boolean;
}

/** vitest's `json` reporter output (the fields counted here). */
interface VitestReport {
  success: boolean;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { status: string; assertionResults: { status: string }[] }[];
}

/** What contracts/plugins/testReport.ts writes: one entry per Hardhat test runner that ran. */
interface HardhatReport {
  runners: Record<string, Counts & { success: boolean; todo: number }>;
}

/** One task of turbo's `--summarize` / `--dry=json` output (the fields used here). */
interface TurboTask {
  taskId: string;
  task: string;
  package: string;
  directory: string;
  command: string;
  cache?: { status: string };
  execution?: { startTime: number; endTime: number; exitCode?: number };
}

function run(args: string[], output: "inherit" | "capture" = "inherit") {
  return new Promise<{ code: number; stdout: string }>((resolve) => {
    const [command, ...rest] = [...pnpm, ...args];
    const child = spawn(command as string, rest, {
      cwd: root,
      stdio: ["ignore", output === "inherit" ? "inherit" : "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.on("close", (code) => resolve({ code: code ?? 1, stdout }));
  });
}

function countVitest(report: VitestReport): Counts {
  // A file that failed to load, or whose setup threw, fails with no failed test in it.
  const brokenFiles = report.testResults.filter(
    (file) =>
      file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed"),
  ).length;
  const failed = report.numFailedTests + brokenFiles;
  return {
    passed: report.numPassedTests,
    failed: failed === 0 && !report.success ? 1 : failed,
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

function countHardhat(report: HardhatReport): Counts {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const runner of Object.values(report.runners)) {
    counts.passed += runner.passed;
    // A runner that stopped before counting (a compile error) reports success: false, 0 failed.
    counts.failed += runner.failed === 0 && !runner.success ? 1 : runner.failed;
    counts.skipped += runner.skipped + runner.todo;
  }
  return counts;
}

/** Sums every report a suite left in its test-results/; undefined when it left none. */
function countReports(directory: string): Counts | undefined {
  const folder = path.join(directory, REPORT_DIR);
  if (!existsSync(folder)) return undefined;
  const files = readdirSync(folder).filter((name) => name.endsWith(".json"));
  if (files.length === 0) return undefined;
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const name of files) {
    const report = JSON.parse(readFileSync(path.join(folder, name), "utf8"));
    const counts = "runners" in report ? countHardhat(report) : countVitest(report as VitestReport);
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  }
  return total;
}

/**
 * The suites `turbo run test` will run: the test tasks of packages with a test script (the plan
 * also lists the builds they depend on).
 */
async function plannedSuites(): Promise<TurboTask[]> {
  const { code, stdout } = await run([...turbo, "test", "--dry=json"], "capture");
  if (code !== 0) return [];
  const plan = JSON.parse(stdout) as { tasks: TurboTask[] };
  return plan.tasks.filter((task) => task.task === "test" && task.command !== "<NONEXISTENT>");
}

/** The run summary turbo wrote for the run that started at `since` (`--summarize`). */
function summaryOfRunSince(since: number): Map<string, TurboTask> {
  const folder = path.join(root, ".turbo", "runs");
  const newest = existsSync(folder)
    ? readdirSync(folder)
        .map((name) => path.join(folder, name))
        .filter((file) => file.endsWith(".json") && statSync(file).mtimeMs >= since)
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
    : undefined;
  if (!newest) return new Map();
  const summary = JSON.parse(readFileSync(newest, "utf8")) as { tasks: TurboTask[] };
  return new Map(summary.tasks.map((task) => [task.taskId, task]));
}

async function main() {
  const started = Date.now();
  console.log("=== build");
  const build = await run([...turbo, "build", "--output-logs=new-only"]);
  if (build.code !== 0) {
    console.log("build failed");
    console.log("0 passed, 1 failed");
    process.exit(1);
  }

  const rows: Row[] = [];
  // Lint and type checks count as one test each: a failure fails the run like any test.
  for (const check of ["lint", "typecheck"]) {
    console.log(`\n=== ${check}`);
    const t0 = Date.now();
    const { code } = await run(["run", check]);
    rows.push({
      name: check,
      passed: code === 0 ? 1 : 0,
      failed: code === 0 ? 0 : 1,
      skipped: 0,
      seconds: (Date.now() - t0) / 1000,
      cached: false,
    });
  }

  console.log("\n=== test");
  const suites = await plannedSuites();
  if (suites.length === 0) {
    rows.push({
      name: "test (turbo could not plan)",
      passed: 0,
      failed: 1,
      skipped: 0,
      seconds: 0,
      cached: false,
    });
  }
  // A report left by an earlier run must never be counted for this one; turbo restores a cached
  // suite's report itself.
  for (const suite of suites) {
    rmSync(path.join(root, suite.directory, REPORT_DIR), { recursive: true, force: true });
  }
  const testStarted = Date.now();
  const tests = await run([
    ...turbo,
    "test",
    "--concurrency=2",
    // Every suite runs even when one below it failed, so one run reports every failure.
    "--continue=always",
    "--summarize",
    // A replayed suite prints its cache hit, not its whole log again.
    "--output-logs=new-only",
  ]);
  const summary = summaryOfRunSince(testStarted);
  // In the order they ran (the plan lists them alphabetically).
  const startOf = (suite: TurboTask) => summary.get(suite.taskId)?.execution?.startTime ?? 0;
  suites.sort((a, b) => startOf(a) - startOf(b));
  for (const suite of suites) {
    const task = summary.get(suite.taskId);
    const counts = countReports(path.join(root, suite.directory)) ?? {
      passed: 0,
      failed: 1, // crashed, or never ran, before reporting
      skipped: 0,
    };
    const execution = task?.execution;
    if (execution?.exitCode !== undefined && execution.exitCode !== 0 && counts.failed === 0) {
      counts.failed = 1;
    }
    rows.push({
      name: suite.directory,
      ...counts,
      seconds: execution ? (execution.endTime - execution.startTime) / 1000 : 0,
      cached: task?.cache?.status === "HIT",
    });
  }

  // Turbo failed, yet no suite shows why (its summary is missing): still a failure.
  if (
    tests.code !== 0 &&
    !rows.some((r) => r.failed > 0 && suites.some((s) => s.directory === r.name))
  ) {
    rows.push({
      name: "turbo run test",
      passed: 0,
      failed: 1,
      skipped: 0,
      seconds: 0,
      cached: false,
    });
  }

  console.log("\n=== summary");
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(18)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed ${String(r.skipped).padStart(3)} skipped  ${r.seconds.toFixed(0).padStart(4)}s${r.cached ? "  (cached)" : ""}`,
    );
  }
  const passed = rows.reduce((n, r) => n + r.passed, 0);
  const failed = rows.reduce((n, r) => n + r.failed, 0);
  console.log(`total time ${((Date.now() - started) / 1000).toFixed(0)}s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

await main();
