/**
 * The root README's TypeScript walkthrough, taken from README.md as written, type-checked against
 * this package and run with Node against a real API: a snippet that stops compiling or stops
 * working fails here instead of in a reader's hands.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, inject, it } from "vitest";

const run = promisify(execFile);
const packageRoot = path.resolve(import.meta.dirname, "..");
const README = path.resolve(packageRoot, "../../README.md");
// Inside this package, so the snippet's `import ... from "@collectibles/client"` resolves to this
// package by its own name, as it does in a project that installed it.
const workDir = path.join(packageRoot, "test-results", "readme");
const SECTION = "### The same in TypeScript";

/** The first ```ts block after the section's heading. */
function snippetFromReadme(): string {
  const readme = fs.readFileSync(README, "utf8");
  const section = readme.indexOf(SECTION);
  expect(section, `README.md has no "${SECTION}" section`).toBeGreaterThan(-1);
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(section));
  expect(block, `no \`\`\`ts block under "${SECTION}"`).not.toBeNull();
  return block?.[1] ?? "";
}

describe("the README's TypeScript walkthrough", () => {
  let file: string;
  beforeAll(() => {
    fs.rmSync(workDir, { recursive: true, force: true });
    fs.mkdirSync(workDir, { recursive: true });
    file = path.join(workDir, "walkthrough.ts");
    fs.writeFileSync(file, snippetFromReadme());
    fs.writeFileSync(
      path.join(workDir, "tsconfig.json"),
      JSON.stringify({ extends: "../../tsconfig.json", include: ["walkthrough.ts"] }),
    );
  });

  it("type-checks against the client", async () => {
    const tsc = path.join(packageRoot, "node_modules", "typescript", "bin", "tsc");
    const checked = await run(process.execPath, [tsc, "--noEmit", "-p", workDir]).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
    );
    expect(checked.stdout).toBe("");
  });

  it("runs against the API: editions 2 and 3, sold_out for the fourth, three claims listed", async () => {
    const { stdout } = await run(process.execPath, [file], {
      cwd: workDir,
      env: { PATH: process.env.PATH ?? "", API: inject("apiUrl"), KEY: inject("apiKey") },
    });
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
