import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { TestReport } from "../plugins/testReportWriter.ts";

const contractsRoot = fileURLToPath(new URL("../", import.meta.url));
const hardhatCli = path.join(
  path.dirname(createRequire(import.meta.url).resolve("hardhat/package.json")),
  "dist/src/cli.js",
);
const fixture = "plugins/fixtures/oneOfEach.test.ts";

/** Runs Hardhat in its own process, as `pnpm test` does; resolves with its exit code. */
function hardhat(args: string[]): Promise<number> {
  const env = { ...process.env };
  // node:test marks its children; a child Hardhat seeing the mark would report to this run.
  delete env.NODE_TEST_CONTEXT;
  return new Promise((resolve) => {
    execFile(process.execPath, [hardhatCli, ...args], { cwd: contractsRoot, env }, (error) =>
      resolve(typeof error?.code === "number" ? error.code : error ? 1 : 0),
    );
  });
}

const readReport = (file: string) => JSON.parse(readFileSync(file, "utf8")) as TestReport;

describe("--test-report", () => {
  it("writes what the node:test runner counted, in place of a report an earlier run left", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "test-report-")), "report.json");
    writeFileSync(file, JSON.stringify({ runners: { solidity: { success: true, passed: 99 } } }));

    const exitCode = await hardhat([
      "--test-report",
      file,
      "test",
      "nodejs",
      "--no-compile",
      fixture,
    ]);

    assert.notEqual(exitCode, 0, "a failing test still fails the run");
    assert.deepEqual(readReport(file), {
      runners: { nodejs: { success: false, passed: 1, failed: 1, skipped: 1, todo: 0 } },
    });
  });

  it("records a runner that stopped before counting as failed, with the reason", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "test-report-")), "report.json");

    // The node:test runner refuses --grep-exclude before it runs anything.
    const exitCode = await hardhat([
      ...["--test-report", file, "test", "nodejs", "--no-compile"],
      ...["--grep-exclude", "anything", fixture],
    ]);

    assert.notEqual(exitCode, 0);
    const counts = readReport(file).runners.nodejs;
    assert.equal(counts?.success, false);
    assert.equal(counts?.passed, 0);
    assert.match(counts?.error ?? "", /grepExclude|grep-exclude/i);
  });
});
