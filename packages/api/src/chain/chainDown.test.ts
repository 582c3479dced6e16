/**
 * Chain unreachable: reads keep working, writes are accepted as pending, `/ready` says the chain
 * is down (degraded, not unready), and everything completes once the chain answers again.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type ChainStack,
  type CuttableProxy,
  startChainStack,
  startCuttableProxy,
} from "../test/chainStack.ts";
import { startTestApp, type TestApp } from "../test/testApp.ts";

let stack: ChainStack;
let proxy: CuttableProxy;
let t: TestApp;

beforeAll(async () => {
  stack = await startChainStack();
  proxy = await startCuttableProxy(stack.rpcUrl);
  t = await startTestApp({
    env: { ...stack.env, RPC_URL: proxy.url, CONFIRM_TIMEOUT_MS: "1500" },
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await proxy?.close();
  await stack?.stop();
});

async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it("accepts claims as pending while the chain is down, stays readable, and completes them when it returns", async () => {
  const org = (await t.call("POST", "/organizations", { json: { name: "Offline" } })).body.data;
  const before = await t.call("POST", "/collectibles", {
    json: { organization_id: org.id, name: "Before", total_count: 5 },
  });
  expect([201, 202]).toContain(before.status);
  await until("the first collectible confirmed", async () => {
    const res = await t.call("GET", `/collectibles/${before.body.data.id}`);
    return res.body.data.status === "confirmed" ? res : undefined;
  });

  await proxy.cut();

  const claim = await t.call("POST", "/claims", {
    json: { collectible_id: before.body.data.id, email: "offline@example.com" },
  });
  expect(claim.status).toBe(202);
  expect(claim.body.data).toMatchObject({ status: "pending", is_active: false, edition: null });
  const during = await t.call("POST", "/collectibles", {
    json: { organization_id: org.id, name: "During", total_count: 2 },
  });
  expect(during.status).toBe(202);
  expect(during.body.data.status).toBe("pending");

  const read = await t.call("GET", `/claims/${claim.body.data.id}`);
  expect(read.status).toBe(200);
  expect(read.body.data.status).toBe("pending");
  expect((await t.call("GET", "/collectibles")).status).toBe(200);
  const ready = await t.call("GET", "/ready", { key: null });
  expect(ready.status).toBe(200);
  expect(ready.body.data.status).toBe("degraded");
  const checks = Object.fromEntries(
    ready.body.data.checks.map((c: { name: string; status: string }) => [c.name, c.status]),
  );
  expect(checks).toEqual({ database: "up", chain: "down", indexer: "up" });

  await proxy.restore();

  await until("the claim confirmed", async () => {
    const res = await t.call("GET", `/claims/${claim.body.data.id}`);
    return res.body.data.status === "confirmed" ? res : undefined;
  });
  await until("the collectible confirmed", async () => {
    const res = await t.call("GET", `/collectibles/${during.body.data.id}`);
    return res.body.data.status === "confirmed" ? res : undefined;
  });
  const claimOfNew = await t.call("POST", "/claims", {
    json: { collectible_id: during.body.data.id, email: "back@example.com" },
  });
  expect([201, 202]).toContain(claimOfNew.status);
  await until("a claim of the new collectible confirmed", async () => {
    const res = await t.call("GET", `/claims/${claimOfNew.body.data.id}`);
    return res.body.data.status === "confirmed" ? res : undefined;
  });
  const readyAgain = await t.call("GET", "/ready", { key: null });
  expect(readyAgain.body.data.status).toBe("ready");
}, 120_000);
