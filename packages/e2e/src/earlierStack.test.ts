/**
 * A start after a killed one (scripts/earlierStack.ts): it waits while the killed start's
 * guardian is stopping the parts, and only then; a part nothing stops is refused at once. Real
 * processes stand in for the parts and the guardian, recorded in a run marker as a start writes it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { processAlive as alive } from "@collectibles/devkit/processes";
import { afterEach, expect, it } from "vitest";
import { commandOf, earlierStackOn, waitForStoppingParts } from "../../../scripts/earlierStack.ts";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
});

/** A process that ends on its own after `ms`, as a part stopping slowly would. */
function running(ms: number): ChildProcess {
  const child = spawn(process.execPath, ["-e", `setTimeout(() => {}, ${ms})`], { stdio: "ignore" });
  started.push(child);
  return child;
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.on("exit", resolve));
  return child.pid as number;
}

/** A data folder whose marker says: a start (dead), its indexer, and its guardian. */
async function markerOf(indexer: ChildProcess, guardian: { pid: number }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-marker-"));
  const data = { dir, marker: path.join(dir, "running.json") };
  const part = (name: string, pid: number) => ({ name, pid, command: commandOf(pid) });
  const marker = {
    pid: await deadPid(),
    parts: [part("indexer", indexer.pid as number)],
    guardian: part("guardian", guardian.pid),
  };
  fs.writeFileSync(data.marker, JSON.stringify(marker));
  return data;
}

it("waits while the killed start's guardian stops its parts, naming them, then lets it start", async () => {
  const indexer = running(1_500);
  const guardian = running(60_000);
  const data = await markerOf(indexer, guardian as { pid: number });
  const said: string[] = [];

  await waitForStoppingParts(data, (line) => said.push(line));

  expect(said).toEqual([
    expect.stringMatching(
      new RegExp(`was killed; waiting while the indexer \\(pid ${indexer.pid}\\) stop$`),
    ),
  ]);
  expect(alive(indexer.pid as number)).toBe(false);
  expect(earlierStackOn(data)).toBeUndefined();
});

it("does not wait for a part nothing stops (its guardian is gone), which is then refused", async () => {
  const indexer = running(60_000);
  const data = await markerOf(indexer, { pid: await deadPid() });
  const said: string[] = [];

  await waitForStoppingParts(data, (line) => said.push(line));

  expect(said).toEqual([]);
  expect(alive(indexer.pid as number)).toBe(true);
  expect(earlierStackOn(data)).toContain(`the indexer (pid ${indexer.pid}`);
});
