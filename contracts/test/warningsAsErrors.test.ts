import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import hre from "hardhat";
import type { CompilerOutput, CompilerOutputError } from "hardhat/types/solidity";
import { PROMOTED_PREFIX, promoteWarnings } from "../plugins/warningsAsErrorsHooks.ts";

const fixture = fileURLToPath(new URL("../plugins/fixtures/UnusedVariable.sol", import.meta.url));

/** Runs `fn` with console output swallowed: Hardhat prints the compiler errors it reports. */
async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const { log, warn, error } = console;
  console.log = console.warn = console.error = () => {};
  try {
    return await fn();
  } finally {
    Object.assign(console, { log, warn, error });
  }
}

function warning(
  errorCode: string,
  file: string,
): CompilerOutputError & { sourceLocation: object } {
  return {
    type: "Warning",
    component: "general",
    severity: "warning",
    errorCode,
    message: `warning ${errorCode}`,
    formattedMessage: `Warning: warning ${errorCode}`,
    sourceLocation: { file, start: 0, end: 1 },
  };
}

describe("compiler warnings are errors", () => {
  it("fails the Hardhat build of a source whose only problem is a warning", {
    skip:
      hre.globalOptions.coverage &&
      "--coverage builds instrumented sources, where warnings stay warnings",
  }, async () => {
    const results = await quietly(() =>
      hre.solidity.build([fixture], { force: true, quiet: true }),
    );
    assert.ok(results instanceof Map);
    const result = results.get(fixture);
    assert.equal(result?.type, "BUILD_FAILURE");
    assert.ok(result.type === "BUILD_FAILURE");
    const [error] = result.errors;
    assert.equal(result.errors.length, 1);
    assert.equal(error?.severity, "error");
    assert.match(
      error?.formattedMessage ?? "",
      new RegExp(`^${escapeRegExp(PROMOTED_PREFIX)}: Warning: Unused local variable`),
    );
  });

  it("keeps the contract-size warnings of Solidity test files as warnings, and only those", () => {
    const output: CompilerOutput = {
      sources: {},
      contracts: {},
      errors: [
        warning("5574", "project/test/Collectibles.t.sol"),
        warning("3860", "project/contracts/Thing.t.sol"),
        warning("5574", "project/contracts/Collectibles.sol"),
        warning("2072", "project/test/Collectibles.t.sol"),
      ],
    };
    const severities = promoteWarnings(output).errors?.map((e) => e.severity);
    assert.deepEqual(severities, ["warning", "warning", "error", "error"]);
  });

  it("leaves an output without warnings untouched", () => {
    const output: CompilerOutput = { sources: {}, contracts: {}, errors: [] };
    assert.equal(promoteWarnings(output), output);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
