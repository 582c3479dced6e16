/**
 * `pnpm start` given one port for two services refuses to start, naming both: otherwise the API
 * could not listen and the indexer on its port would answer its readiness check instead.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePorts, killStacks, startStack } from "./localStack.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-ports-"));
afterAll(() => {
  killStacks();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it("refuses PORT equal to INDEXER_PORT before starting anything, naming both", async () => {
  const ports = await freePorts();
  const start = startStack({ dataDir, ports: { ...ports, indexer: ports.api } });
  await expect(start).rejects.toThrow(
    `PORT and INDEXER_PORT are both ${ports.api}: each service needs its own port`,
  );
  // Nothing was started: the data folder holds no chain.
  expect(fs.existsSync(path.join(dataDir, "chain"))).toBe(false);
});
