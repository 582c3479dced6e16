/**
 * Two `pnpm start`s of one checkout deploy one after the other (scripts/deployLock.ts): Hardhat
 * writes its compile cache through one temporary file, and two deployments at once made one of
 * them fail. A lock left by a killed start does not block the next one.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, it } from "vitest";
import { whileHoldingLock } from "../../../scripts/deployLock.ts";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-deploy-lock-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

it("lets one deployment run at a time, the second waiting for the first", async () => {
  const lock = path.join(folder, "one-at-a-time.lock");
  const events: string[] = [];
  const deployment = (name: string) => async () => {
    events.push(`${name} starts`);
    await sleep(300);
    events.push(`${name} ends`);
  };
  let waited = 0;
  await Promise.all([
    whileHoldingLock(lock, deployment("first"), () => waited++),
    whileHoldingLock(lock, deployment("second"), () => waited++),
  ]);
  expect(events).toEqual(["first starts", "first ends", "second starts", "second ends"]);
  expect(waited).toBe(1);
  expect(fs.existsSync(lock)).toBe(false);
});

it("takes over a lock whose owner was killed, and releases it when the work fails", async () => {
  const lock = path.join(folder, "abandoned.lock");
  // The pid of a process that has exited: a start killed while it deployed.
  const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  fs.writeFileSync(lock, dead.stdout.toString());
  let waited = false;
  await expect(
    whileHoldingLock(
      lock,
      async () => {
        throw new Error("deploy failed");
      },
      () => {
        waited = true;
      },
    ),
  ).rejects.toThrow("deploy failed");
  expect(waited).toBe(false);
  expect(fs.existsSync(lock)).toBe(false);
});
