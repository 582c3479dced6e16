/**
 * A killed `pnpm start` leaves nothing running, however it is killed: a SIGKILL of its process
 * group (a closed terminal, a supervisor giving up) reaches none of its parts, each in a group of
 * its own, yet the chain, the indexer, the API and PostgreSQL end with it; a start at once after
 * such a kill waits while they stop. And while a part of an earlier stack still runs with nothing
 * stopping it (a crash that spared it and took the guardian), a new start refuses, naming it,
 * before it changes anything in the data folder.
 */
import fs from "node:fs";
import path from "node:path";
import { processAlive as alive, portAnswers } from "@collectibles/devkit/processes";
import { afterAll, describe, expect, it } from "vitest";
import { apiOf, dataFolder, freePorts, killStacks, runStart, startStack } from "./localStack.ts";

const folders: string[] = [];
afterAll(() => {
  killStacks();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** The pids of `pids` still running after up to `timeoutMs`. */
async function survivors(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every file under `dir` but the chain's (the spared chain still writes its state), as it is. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      const name = path.relative(dir, full);
      if (name === "chain") continue;
      if (entry.isDirectory()) walk(full);
      else {
        const stat = fs.statSync(full);
        files[name] = `${stat.size} ${stat.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return files;
}

describe("a SIGKILL of pnpm start's process group", () => {
  it("ends the chain, the indexer, the API and PostgreSQL with it, freeing every port", async () => {
    const dataDir = dataFolder("e2e-group-kill");
    folders.push(dataDir);
    const stack = await startStack({ dataDir });
    const processes = stack.processes().filter((pid) => pid !== stack.process.pid);
    expect(processes.length).toBeGreaterThanOrEqual(4);

    stack.killGroup();
    await stack.process.exited;
    // Each part is asked to stop as it wants to (anvil saves its state), then killed if it lingers.
    expect(await survivors(processes, 30_000)).toEqual([]);
    for (const port of Object.values(stack.ports)) expect(await portAnswers(port)).toBe(false);
  });

  it("lets a start at once after it resume with the same data, its parts stopped first", async () => {
    const dataDir = dataFolder("e2e-group-kill-restart");
    folders.push(dataDir);
    const first = await startStack({ dataDir });
    const api = apiOf(first, first.printedKey() as string);
    const made = await api("POST", "/organizations", { name: "Outlives the kill" });
    expect(made.status).toBe(201);
    const parts = first.processes().filter((pid) => pid !== first.process.pid);

    // As a supervisor restarting at once (same folder, same ports): not refused for the parts
    // the killed start's guardian may still be stopping (earlierStack.test.ts: it waits).
    first.killGroup();
    await first.process.exited;
    const second = await startStack({ dataDir, ports: first.ports });

    expect(parts.filter(alive)).toEqual([]);
    const again = apiOf(second, first.printedKey() as string);
    expect((await again("GET", `/organizations/${made.body.data.id}`)).body.data.name).toBe(
      "Outlives the kill",
    );
    await second.stop();
  });
});

describe("pnpm start while a part of an earlier stack still runs", () => {
  it("refuses, naming the part by pid, and changes nothing in the data folder, --fresh included", async () => {
    const dataDir = dataFolder("e2e-leftover");
    folders.push(dataDir);
    const first = await startStack({ dataDir });
    const chain = first.pidOf(/anvil/) as number;
    expect(chain).toBeDefined();
    // Everything else is killed at once, the guardian too: the chain is left as an orphan.
    first.crash({ spare: /anvil/ });
    await first.process.exited;
    expect(alive(chain)).toBe(true);
    const before = snapshot(dataDir);

    // The same folder on other ports: the orphan still writes the chain's state in it.
    for (const args of [[], ["--fresh"]]) {
      const again = await runStart({ dataDir, args, timeoutMs: 60_000 });
      expect(again.code).toBe(1);
      expect(again.output).toMatch(
        new RegExp(`the chain \\(pid ${chain}: [^)]*anvil[^)]*\\) of an earlier pnpm start`),
      );
      expect(again.output).toContain("Nothing was changed");
      expect(snapshot(dataDir)).toEqual(before);
    }

    // Another folder on the orphan's port: refused naming the port and what holds it.
    const elsewhere = dataFolder("e2e-leftover-port");
    folders.push(elsewhere);
    const ports = { ...(await freePorts()), chain: first.ports.chain };
    const onPort = await runStart({ dataDir: elsewhere, ports, timeoutMs: 60_000 });
    expect(onPort.code).toBe(1);
    expect(onPort.output).toMatch(
      new RegExp(`port ${ports.chain} \\(CHAIN_PORT\\) is taken by pid ${chain} \\([^)]*anvil`),
    );
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    expect(alive(chain)).toBe(true);
  });
});
