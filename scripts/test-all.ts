/**
 * `pnpm test`: builds, lints, type-checks, then runs every workspace package's test suite one after another (the
 * suites start chains, indexers and databases; run side by side they would fight over two cores),
 * streams their output, and ends with one line summing them all: `N passed, M failed`.
 * Exits non-zero when any test failed or a suite crashed.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";

interface SuiteResult {
  name: string;
  passed: number;
  failed: number;
  exitCode: number;
  seconds: number;
}

const root = new URL("../", import.meta.url);
const pnpm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["pnpm"];

/** Packages with a test script, in dependency order (the order the architecture flows). */
const SUITES = ["contracts", "deploy", "packages/indexer", "packages/api"].filter((dir) => {
  try {
    const pkg = JSON.parse(readFileSync(new URL(`${dir}/package.json`, root), "utf8"));
    return Boolean(pkg.scripts?.test);
  } catch {
    return false;
  }
});

function run(args: string[], cwd: URL): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const [command, ...rest] = [...pnpm, ...args];
    const child = spawn(command as string, rest, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const forward = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk.toString();
      stream.write(chunk);
    };
    child.stdout.on("data", forward(process.stdout));
    child.stderr.on("data", forward(process.stderr));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

// Colour codes would split the numbers we look for.
const plain = (text: string) => stripVTControlCharacters(text);

/** Counts from the runners this repository uses: vitest, node:test and Hardhat's Solidity runner. */
export function countResults(raw: string): { passed: number; failed: number } {
  const text = plain(raw);
  let passed = 0;
  let failed = 0;
  // vitest: "Tests  12 passed | 1 failed (13)"
  for (const m of text.matchAll(/^\s*Tests\s+([^\n]*)\(\d+\)\s*$/gm)) {
    passed += Number(/(\d+) passed/.exec(m[1] ?? "")?.[1] ?? 0);
    failed += Number(/(\d+) failed/.exec(m[1] ?? "")?.[1] ?? 0);
  }
  // Hardhat (node:test and Solidity runners): "12 passing" / "1 failing"
  for (const m of text.matchAll(/^\s*(\d+) passing\b/gm)) passed += Number(m[1]);
  for (const m of text.matchAll(/^\s*(\d+) failing\b/gm)) failed += Number(m[1]);
  return { passed, failed };
}

async function main() {
  const started = Date.now();
  console.log("=== build");
  const build = await run(["exec", "turbo", "run", "build"], root);
  if (build.code !== 0) {
    console.log("build failed");
    console.log("0 passed, 1 failed");
    process.exit(1);
  }

  const results: SuiteResult[] = [];
  // Lint and type checks count as one test each: a failure fails the run like any test.
  for (const check of ["lint", "typecheck"]) {
    console.log(`\n=== ${check}`);
    const t0 = Date.now();
    const { code } = await run(["run", check], root);
    const ok = code === 0;
    results.push({
      name: check,
      passed: ok ? 1 : 0,
      failed: ok ? 0 : 1,
      exitCode: code,
      seconds: (Date.now() - t0) / 1000,
    });
  }
  for (const dir of SUITES) {
    console.log(`\n=== test ${dir}`);
    const t0 = Date.now();
    const { code, output } = await run(["run", "test"], new URL(`${dir}/`, root));
    const counts = countResults(output);
    // A suite that crashed before reporting, or exited non-zero with no failure counted, is one failure.
    const failed = counts.failed || (code === 0 ? 0 : 1);
    results.push({
      name: dir,
      ...counts,
      failed,
      exitCode: code,
      seconds: (Date.now() - t0) / 1000,
    });
  }

  console.log("\n=== summary");
  for (const r of results) {
    console.log(
      `${r.name.padEnd(18)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed  ${r.seconds.toFixed(0)}s`,
    );
  }
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  console.log(`total time ${((Date.now() - started) / 1000).toFixed(0)}s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

await main();
