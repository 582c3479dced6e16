/**
 * `pnpm start` given one port for two services refuses to start, naming both: otherwise the API
 * could not listen and the indexer on its port would answer its readiness check instead. Given
 * ports and a data folder of their own, two stacks run side by side on one machine, each with its
 * own chain, PostgreSQL and records.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import {
  apiOf,
  dataFolder,
  freePorts,
  killStacks,
  type RunningStack,
  startStack,
} from "./localStack.ts";

const dataDir = dataFolder("e2e-ports");
const sideBySide = [1, 2].map((n) => dataFolder(`e2e-side-by-side-${n}`));
afterAll(() => {
  killStacks();
  for (const dir of [dataDir, ...sideBySide]) fs.rmSync(dir, { recursive: true, force: true });
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

it("two stacks on one machine with their own ports and data folders run side by side", async () => {
  // Eight distinct ports: each stack draws four, and they must not meet either.
  const first = await freePorts();
  let second = await freePorts();
  while (Object.values(second).some((port) => Object.values(first).includes(port))) {
    second = await freePorts();
  }
  // At once, as two people (or two CI jobs) on one machine would: chains, deploys, databases,
  // indexers and APIs all overlap.
  const started = await Promise.allSettled([
    startStack({ dataDir: sideBySide[0] as string, ports: first }),
    startStack({ dataDir: sideBySide[1] as string, ports: second }),
  ]);
  const stacks = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  if (stacks.length < 2) {
    await Promise.all(stacks.map((stack) => stack.stop()));
    throw (started.find((s) => s.status === "rejected") as PromiseRejectedResult).reason;
  }
  const [a, b] = stacks as [RunningStack, RunningStack];
  const keyA = a.printedKey() as string;
  const keyB = b.printedKey() as string;
  expect(keyA).toBeDefined();
  expect(keyB).toBeDefined();
  expect(keyA).not.toBe(keyB);
  const apiA = apiOf(a, keyA);
  const apiB = apiOf(b, keyB);
  const [orgA, orgB] = await Promise.all([
    apiA("POST", "/organizations", { name: "Side A" }),
    apiB("POST", "/organizations", { name: "Side B" }),
  ]);
  expect(orgA.status).toBe(201);
  expect(orgB.status).toBe(201);

  const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((org) => org.id);
  expect(idsOf(await apiA("GET", "/organizations"))).toEqual([orgA.body.data.id]);
  expect(idsOf(await apiB("GET", "/organizations"))).toEqual([orgB.body.data.id]);
  // Each API knows its own keys only.
  expect((await apiOf(a, keyB)("GET", "/organizations")).status).toBe(401);
  expect((await apiOf(b, keyA)("GET", "/organizations")).status).toBe(401);
  // Each has its own database in its own data folder.
  for (const dir of sideBySide) {
    expect(fs.existsSync(path.join(dir, "postgres", "data", "PG_VERSION"))).toBe(true);
  }
  await Promise.all([a.stop(), b.stop()]);
});
