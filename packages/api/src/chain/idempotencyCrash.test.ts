/**
 * An Idempotency-Key survives a crash between the commit and the answer: the real API entry runs
 * as a child process, accepts a claim under a key while the chain is cut (so it commits, then
 * waits for the chain before answering), and is killed with SIGKILL in that wait. Started again,
 * it answers the client's retry with the claim that was created, at once and never with a second
 * one: the key's record was written in the claim's own transaction.
 */
import { expect, it } from "vitest";
import { claimedOnChain } from "../test/agreement.ts";
import { apiProcessesOnChainPerFile, crash, jsonOf } from "../test/apiProcess.ts";
import { type CuttableProxy, startCuttableProxy } from "../test/chainStack.ts";
import { until } from "../test/faults.ts";

const API_KEY = "ck_test_idempotencycrashidempotency01";

let proxy: CuttableProxy;
const { start, call, createCollectible, stack } = apiProcessesOnChainPerFile({
  name: "idempotency-crash",
  apiKey: API_KEY,
  async settings(chain) {
    proxy = await startCuttableProxy(chain.rpcUrl);
    return { ...chain.env, RPC_URL: proxy.url };
  },
  tearDown: async () => proxy?.close(),
});

it("answers the retry after a crash between commit and answer with the one claim created", async () => {
  // A first life that waits long for the chain, so the kill lands after the commit.
  let { url, process: api } = await start({ CONFIRM_TIMEOUT_MS: "120000" });
  const org = await jsonOf(await call(url, "POST", "/organizations", { name: "Crash between" }));
  const created = await createCollectible(url, org.data.id, "Once", 5);
  const collectibleId: string = (await jsonOf(created)).data.id;
  expect(created.status).toBe(201);

  await proxy.cut();
  const body = { collectible_id: collectibleId, email: "once@crash.example" };
  const key = `claim-${collectibleId}`;
  const firstTry = call(url, "POST", "/claims", body, key).catch((error: Error) => error);
  // Committed: the claim is listed, while its POST still waits for the chain.
  const stored = await until("the claim committed", async () => {
    const list = await jsonOf(await call(url, "GET", `/claims?collectible_id=${collectibleId}`));
    return list.data[0] as { id: string } | undefined;
  });
  await crash(api);
  expect(await firstTry).toBeInstanceOf(Error); // the client never got its answer

  await proxy.restore();
  ({ url, process: api } = await start({ CONFIRM_TIMEOUT_MS: "5000" }));
  const retry = await call(url, "POST", "/claims", body, key);
  expect([201, 202]).toContain(retry.status);
  expect(retry.headers.get("idempotent-replayed")).toBe("true");
  const answered = await jsonOf(retry);
  expect(answered.data.id).toBe(stored.id);
  expect(retry.headers.get("location")).toBe(`/claims/${stored.id}`);
  // And the next retry gets that same answer, stored.
  const again = await call(url, "POST", "/claims", body, key);
  expect(await jsonOf(again)).toEqual(answered);

  const list = await jsonOf(await call(url, "GET", `/claims?collectible_id=${collectibleId}`));
  expect(list.pagination.count).toBe(1);
  await until("the claim minted", async () =>
    (await claimedOnChain(stack, collectibleId)) === 1n ? true : undefined,
  );
  await api.stop();
}, 300_000);
