import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KNOWN_MODULE_FORMATS, runToEnd } from "./processes.ts";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "module-formats-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

// Registered first, so called last: counts the resolutions from a dependency's file that reach
// Node's own resolver.
const countNode = path.join(work, "countNode.mjs");
fs.writeFileSync(
  countNode,
  `import { registerHooks } from "node:module";
globalThis.reachedNode = 0;
registerHooks({ resolve(s, c, next) {
  if (c.parentURL?.includes("/node_modules/")) globalThis.reachedNode++;
  return next(s, c);
} });`,
);
// Registered last, so called first: sees every resolution's final answer.
const recordAnswers = path.join(work, "recordAnswers.mjs");
fs.writeFileSync(
  recordAnswers,
  `import { registerHooks } from "node:module";
const answers = new Set();
registerHooks({ resolve(s, c, next) { const r = next(s, c); answers.add(r.url + " " + r.format); return r; } });
process.on("exit", () => console.log(JSON.stringify({ answers: [...answers].sort(), reachedNode: globalThis.reachedNode })));`,
);

/** What a Node process in `cwd` resolves while it imports `modules`, with or without the hook. */
async function importing(modules: string[], cwd: string, knownFormats: boolean) {
  const run = await runToEnd({
    name: "node importing",
    command: process.execPath,
    args: [
      ...["--import", countNode],
      ...(knownFormats ? KNOWN_MODULE_FORMATS : []),
      ...["--import", recordAnswers],
      "--input-type=module",
      "-e",
      `for (const m of ${JSON.stringify(modules)}) await import(m).catch((e) => console.log(JSON.stringify({ error: e.code })));`,
    ],
    cwd,
    timeoutMs: 60_000,
  });
  expect(run.code, run.output).toBe(0);
  const lines = run.output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
  return { errors: lines.filter((l) => l.error), ...lines.at(-1) };
}

/** Writes `files` (path → text) under a new app folder's node_modules; answers the app folder. */
function appWith(name: string, files: Record<string, string>): string {
  const app = path.join(work, name);
  for (const [file, text] of Object.entries(files)) {
    const where = path.join(app, "node_modules", file);
    fs.mkdirSync(path.dirname(where), { recursive: true });
    fs.writeFileSync(where, text);
  }
  return app;
}

describe("KNOWN_MODULE_FORMATS", () => {
  it("loads a package's files as Node alone does, without asking Node for each", async () => {
    // A chain of 20 ES module files, each importing the next by a relative path.
    const files: Record<string, string> = { "esm/package.json": `{ "type": "module" }` };
    for (let i = 0; i < 20; i++)
      files[`esm/lib/part${i}.js`] = `import "${i < 19 ? `./part${i + 1}.js` : "../end.js"}";`;
    files["esm/end.js"] = "export const end = 1;";
    const app = appWith("chain", files);
    const alone = await importing(["esm/lib/part0.js"], app, false);
    const told = await importing(["esm/lib/part0.js"], app, true);
    expect(alone.errors).toEqual([]);
    expect(told.answers).toEqual(alone.answers);
    expect(told.answers.filter((a: string) => a.endsWith(".js module"))).toHaveLength(21);
    expect(alone.reachedNode - told.reachedNode).toBe(20);
  });

  it("loads real dependencies (vite, pg) as the same files and formats as Node alone", async () => {
    const alone = await importing(["vite", "pg"], import.meta.dirname, false);
    const told = await importing(["vite", "pg"], import.meta.dirname, true);
    expect(alone.errors).toEqual([]);
    expect(alone.answers.length).toBeGreaterThan(50);
    expect(told.answers).toEqual(alone.answers);
  });

  it("names a file reached through linked folders and linked files by its real path, as Node does", async () => {
    // As pnpm lays packages out: node_modules/linked is a link into a store.
    const app = appWith("links", {
      ".store/linked/package.json": `{ "type": "module" }`,
      ".store/linked/main.js": `import "./through/leaf.js"; import "./alias.js";`,
      ".store/linked/real/leaf.js": "export const leaf = 1;",
      ".store/linked/target.js": "export const target = 1;",
    });
    const store = path.join(app, "node_modules", ".store", "linked");
    fs.symlinkSync(store, path.join(app, "node_modules", "linked"));
    fs.symlinkSync(path.join(store, "real"), path.join(store, "through"));
    fs.symlinkSync(path.join(store, "target.js"), path.join(store, "alias.js"));
    const alone = await importing(["linked/main.js"], app, false);
    const told = await importing(["linked/main.js"], app, true);
    expect(alone.errors).toEqual([]);
    expect(alone.answers.some((a: string) => a.includes("/real/leaf.js"))).toBe(true);
    expect(alone.answers.some((a: string) => a.includes("/target.js"))).toBe(true);
    expect(told.answers).toEqual(alone.answers);
  });

  it("leaves a missing file, a folder and a CommonJS package to Node, with Node's errors", async () => {
    const app = appWith("edges", {
      "esm/package.json": `{ "type": "module", "exports": { "./*": "./*.js" } }`,
      "esm/missing.js": `import "./not-there.js";`,
      "esm/folder.js": `import "./named.js";`,
      "esm/named.js/index.js": "",
      "cjs/package.json": `{ "exports": { "./*": "./*.js" } }`,
      "cjs/main.js": `require("./part.js"); module.exports = 1;`,
      "cjs/part.js": "module.exports = 2;",
    });
    const imported = ["esm/missing", "esm/folder", "cjs/main"];
    const alone = await importing(imported, app, false);
    const told = await importing(imported, app, true);
    expect(alone.errors.map((e: { error: string }) => e.error)).toEqual([
      "ERR_MODULE_NOT_FOUND",
      "ERR_UNSUPPORTED_DIR_IMPORT",
    ]);
    expect(told.errors).toEqual(alone.errors);
    expect(told.answers).toEqual(alone.answers);
  });
});
