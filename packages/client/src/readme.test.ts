/**
 * The root README's walkthroughs, taken from README.md as written and run against a real API, so
 * that a snippet that stops compiling or stops working fails here instead of in a reader's hands:
 * the TypeScript one (examples/walkthrough.ts, which the README shows) with the README's own
 * commands from the repository root, and the curl one twice, as a reader trying it again would.
 */
import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, inject, it } from "vitest";

const run = promisify(execFile);
const packageRoot = path.resolve(import.meta.dirname, "..");
const repoRoot = path.resolve(packageRoot, "../..");
const README = path.join(repoRoot, "README.md");
const WALKTHROUGH = path.join(repoRoot, "examples", "walkthrough.ts");
const workDir = path.join(packageRoot, "test-results", "readme");

/** The first ```<lang> block after the heading `heading`. */
function blockAfter(heading: string, lang: string): string {
  const readme = fs.readFileSync(README, "utf8");
  const section = readme.indexOf(heading);
  expect(section, `README.md has no "${heading}" section`).toBeGreaterThan(-1);
  const block = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(readme.slice(section));
  expect(block, `no \`\`\`${lang} block under "${heading}"`).not.toBeNull();
  return block?.[1] ?? "";
}

/**
 * A shell block run as a reader runs it from the repository root, with the key and the API's URL
 * the block's first lines set (`KEY=ck_live_...`, `API=...`, `export KEY=... API=...`) taken
 * from the test's API instead: those lines are the only ones left out.
 */
async function runShell(block: string): Promise<string> {
  const lines = block.split("\n");
  const settings = /^(export )?(KEY|API)=/;
  expect(lines.filter((line) => settings.test(line)).length).toBeGreaterThan(0);
  const script = lines.filter((line) => !settings.test(line)).join("\n");
  const { stdout } = await run("sh", ["-e", "-c", script], {
    cwd: repoRoot,
    env: { ...process.env, API: inject("apiUrl"), KEY: inject("apiKey") },
    timeout: 240_000,
  });
  return stdout;
}

describe("the README's TypeScript walkthrough", () => {
  beforeAll(() => {
    fs.rmSync(workDir, { recursive: true, force: true });
    fs.mkdirSync(workDir, { recursive: true });
  });

  it("shows examples/walkthrough.ts as it is", () => {
    expect(blockAfter("### The same in TypeScript", "ts")).toBe(
      fs.readFileSync(WALKTHROUGH, "utf8"),
    );
  });

  it("type-checks against the client", async () => {
    fs.writeFileSync(
      path.join(workDir, "tsconfig.json"),
      JSON.stringify({
        extends: "../../tsconfig.json",
        include: [path.relative(workDir, WALKTHROUGH)],
      }),
    );
    const tsc = path.join(packageRoot, "node_modules", "typescript", "bin", "tsc");
    const checked = await run(process.execPath, [tsc, "--noEmit", "-p", workDir]).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
    );
    expect(checked.stdout).toBe("");
  });

  it("runs with the README's commands from the repository root: editions 2 and 3, sold_out for the fourth, three claims listed", async () => {
    const stdout = await runShell(blockAfter("### The same in TypeScript", "sh"));
    const lines = stdout.trim().split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "bob confirmed 2",
      "carol confirmed 3",
      "dave 409 sold_out",
    ]);
    const listed = lines.slice(3).map((line) => line.split(" "));
    expect(listed.map(([edition, status]) => [edition, status])).toEqual([
      ["1", "confirmed"],
      ["2", "confirmed"],
      ["3", "confirmed"],
    ]);
    for (const [, , wallet] of listed) expect(wallet).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
});

// The README's commands are for a machine with curl; on one without it (only Node and npm)
// there is nothing of the README's to run here.
const hasCurl = spawnSync("curl", ["--version"]).status === 0;
if (!hasCurl) console.warn("no curl on this machine: the README's curl walkthrough is skipped");

describe.skipIf(!hasCurl)("the README's curl walkthrough", () => {
  it("runs as written, and again: three claims confirmed and sold_out for the fourth each time", async () => {
    const block = blockAfter("## Try it", "sh");
    for (const attempt of [1, 2]) {
      const said = await runShell(block);
      expect(said, `run ${attempt}`).not.toContain("idempotency_key_reused");
      expect(said.match(/"error":\{"code":"sold_out"/g), `run ${attempt}`).toHaveLength(1);
      // Claims of Ada, bob and carol answered with their editions; the list has all three.
      expect(said.match(/"edition":[123],/g)?.length, `run ${attempt}`).toBeGreaterThanOrEqual(3);
      expect(said, `run ${attempt}`).toContain('"claimed_count":3');
      expect(said, `run ${attempt}`).toMatch(/"pagination":\{[^}]*"count":3/);
    }
  });
});
