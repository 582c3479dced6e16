/**
 * The client outside this repository, as the README tells a user to get it: `pnpm pack` builds
 * dist/ (JavaScript and declarations) into a tarball, npm installs that tarball with
 * `@types/node` into a project in the temp folder (outside the workspace, so nothing of it
 * resolves), and a program written there type-checks against the installed package and runs
 * with Node against the real API.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const run = promisify(execFile);
const packageRoot = path.resolve(import.meta.dirname, "..");
const manifest = JSON.parse(fs.readFileSync(path.join(packageRoot, "package.json"), "utf8"));
const rootManifest = JSON.parse(
  fs.readFileSync(path.resolve(packageRoot, "../../package.json"), "utf8"),
);

/** pnpm: the one running this test (`pnpm test`), else the version the repository names. */
function pnpm(args: string[], cwd: string) {
  const running = process.env.npm_execpath;
  if (running && /pnpm/.test(running)) return run(process.execPath, [running, ...args], { cwd });
  return run("npx", ["-y", rootManifest.packageManager, ...args], { cwd });
}

const PROGRAM = `import { createCollectiblesClient, listAll, unwrap } from "@collectibles/client";

const api = createCollectiblesClient({
  baseUrl: process.env.API ?? "http://127.0.0.1:3000",
  apiKey: process.env.KEY ?? "",
});
const { data: org } = await unwrap(
  api.POST("/organizations", { body: { name: "Installed from the tarball" } }),
);
let listed = 0;
for await (const found of listAll(api, "/organizations", { limit: 100 })) {
  if (found.id === org.id) listed++;
}
console.log(\`\${org.name} listed \${listed}\`);
`;

describe("the client installed from its pnpm pack tarball", () => {
  let project: string;
  beforeAll(async () => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), "client-user-"));
    await pnpm(["pack", "--pack-destination", project], packageRoot);
    const tarball = `collectibles-client-${manifest.version}.tgz`;
    expect(fs.readdirSync(project)).toContain(tarball);
    await run("npm", ["init", "-y"], { cwd: project });
    await run("npm", ["pkg", "set", "type=module"], { cwd: project });
    // What the README says: the tarball, and Node's types for the program.
    await run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        `./${tarball}`,
        `@types/node@${manifest.devDependencies["@types/node"]}`,
      ],
      { cwd: project },
    );
    fs.writeFileSync(path.join(project, "main.ts"), PROGRAM);
    fs.writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "nodenext",
          strict: true,
          noEmit: true,
          types: ["node"],
        },
        include: ["main.ts"],
      }),
    );
  }, 300_000);
  afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

  it("holds JavaScript and declarations, and no TypeScript source", () => {
    const installed = path.join(project, "node_modules", "@collectibles", "client");
    const files = fs.readdirSync(path.join(installed, "dist"));
    expect(files).toEqual(expect.arrayContaining(["index.js", "index.d.ts", "schema.d.ts"]));
    expect(fs.existsSync(path.join(installed, "src"))).toBe(false);
    const packed = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8"));
    expect(packed.exports["."]).toEqual({ types: "./dist/index.d.ts", default: "./dist/index.js" });
  });

  it("type-checks a program against it", async () => {
    const tsc = path.join(packageRoot, "node_modules", "typescript", "bin", "tsc");
    const checked = await run(process.execPath, [tsc, "-p", project]).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    expect(checked.stdout).toBe("");
  });

  it("runs that program with Node against the API", async () => {
    const { stdout } = await run(process.execPath, ["main.ts"], {
      cwd: project,
      env: { PATH: process.env.PATH ?? "", API: inject("apiUrl"), KEY: inject("apiKey") },
    });
    expect(stdout.trim()).toBe("Installed from the tarball listed 1");
  });
});
