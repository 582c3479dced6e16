/**
 * What the packages' vitest runs share: the reports `pnpm test` counts (scripts/test-all.ts),
 * and small helpers for the tests themselves. Nothing here imports vitest, so a config may use it.
 */

/**
 * The `test` settings every package starts from: its test files, and both reporters. People read
 * the default one; `pnpm test` counts from the JSON one, which turbo's cache keeps with the run,
 * so a cached run is counted the same.
 */
export function countedTests(include: string) {
  return {
    include: [include],
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
  };
}

/**
 * The message of the `type` error that `run` throws. Any other error is thrown on, so a test
 * fails on the error itself rather than on a comparison with it.
 */
export function thrownMessage(run: () => unknown, type: abstract new (...args: never[]) => Error) {
  try {
    run();
  } catch (error) {
    if (error instanceof type) return error.message;
    throw error;
  }
  throw new Error(`expected a ${type.name} to be thrown; nothing was`);
}
