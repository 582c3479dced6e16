/**
 * The test-report plugin's task wrapper: runs a test runner and records what it returned, in the
 * shape `scripts/test-all.ts` reads (see testReport.ts for why the plugin exists).
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { TaskOverrideActionFunction } from "hardhat/types/tasks";
import { isResult } from "hardhat/utils/result";

export type RunnerName = "solidity" | "nodejs";

export interface RunnerCounts {
  /** False when the runner reported a failure or an error, or threw before reporting. */
  success: boolean;
  passed: number;
  failed: number;
  skipped: number;
  todo: number;
  /** Why the runner stopped without counts (a compile error, a crash in a hook). */
  error?: string;
}

export interface TestReport {
  runners: Partial<Record<RunnerName, RunnerCounts>>;
}

/** What each runner of this process reported: the file always describes this run only. */
const report: TestReport = { runners: {} };
let staleReportRemoved = false;

interface Summary {
  passed: number;
  failed: number;
  skipped?: number;
  todo?: number;
}

function isSummaryHolder(value: unknown): value is { summary: Summary } {
  const summary = (value as { summary?: Partial<Summary> } | undefined)?.summary;
  return typeof summary?.passed === "number" && typeof summary.failed === "number";
}

/** Counts from a runner task's `Result<{ summary }, { summary }>`, as Hardhat's `test` reads them. */
export function countsOf(result: unknown): RunnerCounts {
  if (!isResult(result, isSummaryHolder, isSummaryHolder)) {
    return { success: false, passed: 0, failed: 0, skipped: 0, todo: 0, error: "no summary" };
  }
  const { summary } = result.success ? result.value : result.error;
  return {
    success: result.success,
    passed: summary.passed,
    failed: summary.failed,
    skipped: summary.skipped ?? 0,
    todo: summary.todo ?? 0,
  };
}

async function write(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
}

export function reportRunnerAs(runner: RunnerName): TaskOverrideActionFunction {
  return async (taskArguments, hre, runSuper) => {
    const file = hre.globalOptions.testReport;
    if (file === "") return runSuper(taskArguments);
    // A report left by an earlier run must not stand in for this one if this run dies early.
    if (!staleReportRemoved) {
      await rm(file, { force: true });
      staleReportRemoved = true;
    }
    try {
      const result = await runSuper(taskArguments);
      report.runners[runner] = countsOf(result);
      await write(file);
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      report.runners[runner] = {
        success: false,
        passed: 0,
        failed: 0,
        skipped: 0,
        todo: 0,
        error: message,
      };
      await write(file);
      throw error;
    }
  };
}
