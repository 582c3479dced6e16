/**
 * The README's "More than one API process" set-up, run as an operator follows it: its shell
 * blocks in order in one shell from the repository root, and its SQL block as PostgreSQL's
 * superuser on a server of its own (first: it needs nothing the shell blocks make). Only the
 * README's ports (8545, 42069, 3001, 3002, 5432) and its folder (`$PWD/.data/scale-out`) are
 * replaced, by free ports and a temporary folder; `pnpm` is the pinned pnpm, as the README says.
 * Then both API processes answer with the key the set-up made, an image uploaded through one is
 * linked at PUBLIC_URL and served from there, and a claim made through one is confirmed through
 * the other.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startTestPostgres } from "@collectibles/devkit/embedded-postgres";
import { runSqlStatements } from "@collectibles/devkit/postgres";
import {
  freePort,
  type ManagedProcess,
  pnpmCli,
  startProcess,
} from "@collectibles/devkit/processes";
import { afterAll, describe, expect, it } from "vitest";
import { confirmed } from "./confirmations.ts";
import { apiOf, logDir, root } from "./localStack.ts";

const SECTION = "### More than one API process";
/** A 1×1 PNG. */
const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
// Its own Ignition journal, so the test never touches the one of your `pnpm deploy:local`.
const deploymentId = `scale-out-${randomBytes(4).toString("hex")}`;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The section's fenced blocks, in order, with their language. */
function readmeBlocks(): { lang: string; text: string }[] {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const from = readme.indexOf(SECTION);
  expect(from, `README.md has no "${SECTION}" section`).toBeGreaterThan(-1);
  const to = readme.indexOf("\n## ", from);
  const section = readme.slice(from, to === -1 ? undefined : to);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
    lang: m[1] ?? "",
    text: m[2] ?? "",
  }));
}

// The README's steps wait with curl; a machine without it (only Node and npm) cannot run them.
const hasCurl = spawnSync("curl", ["--version"]).status === 0;
if (!hasCurl) console.warn("no curl on this machine: the README's scale-out steps are skipped");

describe.skipIf(!hasCurl)("the README's set-up of more than one API process", () => {
  it("runs as written: both processes serve with the key it made, images link to PUBLIC_URL, a claim through one is confirmed through the other", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-scale-out-"));
    cleanups.push(() => fs.rmSync(folder, { recursive: true, force: true }));
    const database = await startTestPostgres();
    cleanups.push(() => database.stop());
    const databasePort = new URL(database.url).port;
    const ports = new Set<number>();
    while (ports.size < 4) ports.add(await freePort());
    const [chain, indexer, api1, api2] = [...ports] as [number, number, number, number];
    const ours = (text: string) =>
      text
        .replace(/\b8545\b/g, String(chain))
        .replace(/\b42069\b/g, String(indexer))
        .replace(/\b3001\b/g, String(api1))
        .replace(/\b3002\b/g, String(api2))
        .replace(/\b5432\b/g, databasePort)
        .replaceAll("$PWD/.data/scale-out", path.join(folder, "data"));

    const blocks = readmeBlocks();
    const sql = blocks.filter((block) => block.lang === "sql");
    const shell = blocks.filter((block) => block.lang === "sh");
    expect(sql).toHaveLength(1);
    expect(shell.length).toBeGreaterThanOrEqual(4);
    for (const block of sql) await runSqlStatements(database.url, ours(block.text));

    // `pnpm` as an operator has it: the pinned pnpm, on the Node this suite runs on.
    const bin = path.join(folder, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, "pnpm"),
      `#!/bin/sh\nexec "${process.execPath}" "${pnpmCli()}" "$@"\n`,
      { mode: 0o755 },
    );
    cleanups.push(() => {
      const deployRoot = path.join(root, "deploy");
      fs.rmSync(path.join(deployRoot, "ignition", "deployments", deploymentId), {
        recursive: true,
        force: true,
      });
      // Where Ignition remembers which node instance each local deployment id ran on.
      const instances = path.join(deployRoot, "cache", ".hardhat-network-instances.json");
      if (fs.existsSync(instances)) {
        const known = JSON.parse(fs.readFileSync(instances, "utf8")) as Record<string, string>;
        delete known[deploymentId];
        fs.writeFileSync(instances, JSON.stringify(known));
      }
    });
    const script = [
      "set -e",
      ...shell.map((block) => ours(block.text)),
      "echo 'scale-out: ready'",
    ].join("\n");
    const lines: string[] = [];
    fs.mkdirSync(logDir, { recursive: true });
    const operator: ManagedProcess = startProcess({
      name: "the README's scale-out steps",
      command: "sh",
      args: ["-c", script],
      cwd: root,
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        IGNITION_DEPLOYMENT_ID: deploymentId,
      },
      logFile: path.join(logDir, "scale-out.log"),
      onLine: (line) => lines.push(line),
      // Ponder wants SIGINT; the chain and the APIs stop on it too.
      stopSignal: "SIGINT",
    });
    cleanups.push(async () => {
      await operator.stop(15_000);
    });
    await operator.waitForLine(/^scale-out: ready$/, 480_000);

    const key = lines.join("\n").match(/API_KEY=(ck_live_[0-9a-f]{32})/)?.[1];
    expect(key, "step 4 prints the key it made").toBeDefined();
    const one = apiOf({ apiUrl: `http://127.0.0.1:${api1}` }, key as string);
    const two = apiOf({ apiUrl: `http://127.0.0.1:${api2}` }, key as string);

    // Uploaded through the second process; linked at PUBLIC_URL (the first's address here).
    const org = await two("POST", "/organizations", { name: "Scaled", logo: PNG });
    expect(org.status).toBe(201);
    const logo = org.body.data.logo as Record<string, string>;
    for (const url of Object.values(logo)) {
      expect(url.startsWith(`http://127.0.0.1:${api1}/`), url).toBe(true);
      expect((await fetch(url)).status, url).toBe(200);
    }
    expect((await one("GET", `/organizations/${org.body.data.id}`)).body.data.wallet_address).toBe(
      org.body.data.wallet_address,
    );

    const collectible = await one("POST", "/collectibles", {
      organization_id: org.body.data.id,
      name: "Scaled Out",
      total_count: 2,
    });
    expect([201, 202]).toContain(collectible.status);
    const claim = await two("POST", "/claims", {
      collectible_id: collectible.body.data.id,
      email: "operator@e2e.example",
    });
    expect([201, 202]).toContain(claim.status);
    expect(await confirmed(one, `/claims/${claim.body.data.id}`)).toMatchObject({ edition: 1 });
  });
});
