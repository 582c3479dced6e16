/**
 * Hardhat plugin that writes each test runner's counts (passed, failed, skipped, todo) to a JSON
 * file, so `pnpm test` counts from data instead of from printed text. Hardhat 3 has no reporter
 * option: `hardhat test` and its Solidity and node:test runners print for people only, and the
 * node:test runner feeds node's `run()` into Hardhat's own reporter in-process, so node's
 * `--test-reporter` flags never reach it. Each runner task does return its counts, so the plugin
 * wraps both runner tasks and writes what they return.
 *
 * Off unless asked for: `hardhat --test-report <file> test` (or HARDHAT_TEST_REPORT=<file>).
 */
import { globalOption, overrideTask } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";
import type { HardhatPlugin } from "hardhat/types/plugins";
import type { RunnerName } from "./testReportWriter.ts";

declare module "hardhat/types/global-options" {
  interface GlobalOptions {
    testReport: string;
  }
}

// A lazy action must be a module's default export; the factory gives each runner's wrapper its
// runner's name.
const reportingAs = (runner: RunnerName) => async () => ({
  default: (await import("./testReportWriter.ts")).reportRunnerAs(runner),
});

const testReport: HardhatPlugin = {
  id: "collectibles-test-report",
  globalOptions: [
    globalOption({
      name: "testReport",
      description: "Write each test runner's passed/failed/skipped counts to this JSON file",
      type: ArgumentType.STRING,
      defaultValue: "",
    }),
  ],
  tasks: [
    overrideTask(["test", "solidity"]).setAction(reportingAs("solidity")).build(),
    overrideTask(["test", "nodejs"]).setAction(reportingAs("nodejs")).build(),
  ],
};

export default testReport;
