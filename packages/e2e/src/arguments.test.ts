/**
 * What `pnpm start` is given is checked before anything starts: `--help` shows what it takes, and
 * a mistyped argument or a port variable that is no port is refused, naming it, instead of being
 * ignored (`--frsh` would resume the old data) or failing once the chain runs; so are a
 * DATABASE_URL that cannot be used and a setting the API would refuse. A relative DATA_DIR means one folder for every part, though
 * each runs in its own package's folder.
 */
import fs from "node:fs";
import path from "node:path";
import { freePort } from "@collectibles/devkit/processes";
import { afterAll, expect, inject, it } from "vitest";
import { apiOf, dataFolder, killStacks, root, runStart, startStack } from "./localStack.ts";

const dataDir = dataFolder("e2e-arguments");
const relativeParent = dataFolder("e2e-relative");
afterAll(() => {
  killStacks();
  for (const dir of [dataDir, relativeParent]) fs.rmSync(dir, { recursive: true, force: true });
});

it("shows its usage for --help, every port variable with its default, and starts nothing", async () => {
  const run = await runStart({ dataDir, args: ["--help"], timeoutMs: 30_000 });

  expect(run.code).toBe(0);
  expect(run.output).toContain("Usage: pnpm start [--fresh]");
  for (const variable of ["PORT", "INDEXER_PORT", "CHAIN_PORT", "DB_PORT", "DATA_DIR"]) {
    expect(run.output).toMatch(new RegExp(`^  ${variable} +.*\\(`, "m"));
  }
  expect(fs.readdirSync(dataDir)).toEqual([]);
});

it.each([
  [["--frsh"], "Unknown option '--frsh'"],
  [["fresh"], "Unexpected argument 'fresh'"],
  [["--fresh=yes"], "Option '--fresh' does not take an argument"],
])("refuses %j, naming it and what it takes, and changes nothing", async (args, named) => {
  const run = await runStart({ dataDir, args, timeoutMs: 30_000 });

  expect(run.code).toBe(1);
  expect(run.output).toContain(
    `[start] failed: ${named}: pnpm start takes --fresh and --help only`,
  );
  expect(fs.readdirSync(dataDir)).toEqual([]);
});

it.each([
  ["PORT", "3OOO"],
  ["DB_PORT", "70000"],
  ["CHAIN_PORT", "-1"],
  ["INDEXER_PORT", "8545.5"],
])("refuses %s=%s, naming the variable, and changes nothing", async (variable, value) => {
  const run = await runStart({ dataDir, env: { [variable]: value }, timeoutMs: 30_000 });

  expect(run.code).toBe(1);
  expect(run.output).toContain(
    `[start] failed: ${variable} must be a port number from 1 to 65535, got "${value}"`,
  );
  expect(fs.readdirSync(dataDir)).toEqual([]);
});

it.each([
  ["READ_CONCURRENCY", "abc", "READ_CONCURRENCY: must be a whole number"],
  [
    "WALLET_MNEMONIC",
    "test test test test test test test test test test test test",
    "WALLET_MNEMONIC: must be a valid English BIP-39 mnemonic",
  ],
])(
  "refuses the API setting %s=%s as the API would, before anything starts",
  async (variable, value, named) => {
    const run = await runStart({ dataDir, env: { [variable]: value }, timeoutMs: 30_000 });

    expect(run.code).toBe(1);
    expect(run.output).toContain(`[start] failed: Invalid configuration:\n  ${named}`);
    // What was given is not repeated: it may be a secret.
    expect(run.output).not.toContain(value);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  },
);

it("refuses a DATABASE_URL nothing answers on, naming it without its password, and starts nothing", async () => {
  const port = await freePort();
  const url = `postgres://someone:not-to-be-shown@127.0.0.1:${port}/collectibles`;

  const run = await runStart({ dataDir, env: { DATABASE_URL: url }, timeoutMs: 30_000 });

  expect(run.code).toBe(1);
  expect(run.output).toContain(
    `[start] failed: DATABASE_URL (postgres://someone:***@127.0.0.1:${port}/collectibles) cannot ` +
      `be used: connect ECONNREFUSED 127.0.0.1:${port}. Nothing was started`,
  );
  expect(run.output).not.toContain("not-to-be-shown");
  expect(fs.readdirSync(dataDir)).toEqual([]);
});

it("refuses a DATABASE_URL whose database does not exist, in the server's words", async () => {
  const url = new URL(inject("postgresUrl"));
  url.pathname = "/e2e_no_such_database";

  const run = await runStart({ dataDir, env: { DATABASE_URL: url.toString() }, timeoutMs: 30_000 });

  expect(run.code).toBe(1);
  expect(run.output).toContain(
    'cannot be used: database "e2e_no_such_database" does not exist. Nothing was started',
  );
  if (url.password) expect(run.output).not.toContain(url.password);
  expect(fs.readdirSync(dataDir)).toEqual([]);
});

it("takes a relative DATA_DIR from the folder it runs in, one folder for every part", async () => {
  const absolute = path.join(relativeParent, "data");
  const stack = await startStack({ dataDir: path.relative(root, absolute) });
  const api = apiOf(stack, stack.printedKey() as string);

  expect((await api("POST", "/organizations", { name: "Relative" })).status).toBe(201);
  await stack.stop();

  expect(stack.lines.join("\n")).toContain(`Data       ${absolute}`);
  expect(fs.readdirSync(absolute).sort()).toEqual(["api", "chain", "deployments", "postgres"]);
});
