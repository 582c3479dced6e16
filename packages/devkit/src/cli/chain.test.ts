/**
 * `pnpm chain` as deploy/README and the scale-out set-up run it: the chain stays up until Ctrl-C
 * (it once exited by itself 4 s after saying "Ctrl-C stops it."), and Ctrl-C stops it cleanly.
 */
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort, killAllProcesses, portAnswers, startProcess } from "../processes.ts";

const root = path.resolve(import.meta.dirname, "../../../..");
afterAll(() => killAllProcesses());

it("runs the chain until Ctrl-C, then stops it and exits 0", async () => {
  const port = await freePort();
  const chain = startProcess({
    name: "pnpm chain",
    command: process.execPath,
    args: ["packages/devkit/src/cli/chain.ts"],
    cwd: root,
    env: { ...process.env, CHAIN_PORT: String(port) },
  });
  await chain.waitForLine(/Ctrl-C stops it/, 60_000);
  // Longer than the 4 s after which it used to end on its own.
  await new Promise((resolve) => setTimeout(resolve, 8_000));
  expect(chain.running()).toBe(true);
  expect(await portAnswers(port)).toBe(true);

  process.kill(chain.pid, "SIGINT");
  expect(await chain.exited).toEqual({ code: 0, signal: null });
  expect(await portAnswers(port)).toBe(false);
}, 90_000);
