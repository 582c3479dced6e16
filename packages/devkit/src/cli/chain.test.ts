/**
 * `pnpm chain` as deploy/README and the scale-out set-up run it: the chain stays up until Ctrl-C
 * (it once exited by itself 4 s after saying "Ctrl-C stops it."), and Ctrl-C stops it cleanly,
 * without a word from pnpm, its state kept in CHAIN_STATE.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import {
  freePort,
  killAllProcesses,
  pnpmCli,
  portAnswers,
  signalGroup,
  startProcess,
} from "../processes.ts";

const root = path.resolve(import.meta.dirname, "../../../..");
const folder = mkdtempSync(path.join(tmpdir(), "devkit-pnpm-chain-"));
afterAll(() => {
  killAllProcesses();
  rmSync(folder, { recursive: true, force: true });
});

it("runs the chain until Ctrl-C, then saves its state, stops it and exits 0 without a word from pnpm", async () => {
  const port = await freePort();
  const stateFile = path.join(folder, "chain.json");
  const output: string[] = [];
  const chain = startProcess({
    name: "pnpm chain",
    command: process.execPath,
    args: [pnpmCli(), "chain"],
    cwd: root,
    env: { ...process.env, CHAIN_PORT: String(port), CHAIN_STATE: stateFile },
    onLine: (line) => output.push(line),
  });
  await chain.waitForLine(/Ctrl-C stops it/, 60_000);
  // Longer than the 4 s after which it used to end on its own.
  await new Promise((resolve) => setTimeout(resolve, 8_000));
  expect(chain.running()).toBe(true);
  expect(await portAnswers(port)).toBe(true);
  await fetch(`http://127.0.0.1:${port}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] }),
  });

  // Ctrl-C in its terminal: SIGINT to the whole process group, pnpm included.
  signalGroup(chain.pid, "SIGINT");
  expect(await chain.exited).toEqual({ code: 0, signal: null });
  expect(output.join("\n")).not.toMatch(/ERR_PNPM|ELIFECYCLE|Command failed/);
  expect(await portAnswers(port)).toBe(false);
  expect(JSON.parse(readFileSync(stateFile, "utf8")).best_block_number).toBe(1);
}, 90_000);
