/**
 * CONFIRMATION_DEPTH: a mined claim stays pending until that many blocks are mined on top of
 * its block, then is confirmed.
 */
import { describe, expect, it } from "vitest";
import { apiProcessesOnChainPerFile, jsonOf } from "../test/apiProcess.ts";
import { until } from "../test/faults.ts";

const API_KEY = "ck_test_confirmationdepthconfirmation";

const { start, call, createCollectible, stack } = apiProcessesOnChainPerFile({
  name: "confirmation-depth",
  apiKey: API_KEY,
  settings: (chain) => ({ ...chain.env, CONFIRMATION_DEPTH: "3", CONFIRM_TIMEOUT_MS: "0" }),
});

describe("CONFIRMATION_DEPTH=3", { timeout: 120_000 }, () => {
  it("confirms a claim only once three blocks are mined on top of its block", async () => {
    const api = await start();
    const mine = (blocks: number) =>
      stack.client.request({ method: "anvil_mine", params: [blocks] } as never);
    const get = async (path: string) => (await jsonOf(await call(api.url, "GET", path))).data;
    const org = await jsonOf(await call(api.url, "POST", "/organizations", { name: "Deep" }));
    const created = await jsonOf(await createCollectible(api.url, org.data.id, "Deep", 2));
    // The creation's block needs three on top; the chain mines only when asked here.
    await until("the collectible mined", async () =>
      (await get(`/collectibles/${created.data.id}`)).transaction_hash ? true : undefined,
    );
    await mine(3);
    await until("the collectible confirmed", async () =>
      (await get(`/collectibles/${created.data.id}`)).status === "confirmed" ? true : undefined,
    );

    const claim = await jsonOf(
      await call(api.url, "POST", "/claims", {
        collectible_id: created.data.id,
        email: "deep@depth.example",
      }),
    );
    expect(claim.data.status).toBe("pending");
    await until("the claim mined", async () =>
      (await get(`/claims/${claim.data.id}`)).transaction_hash ? true : undefined,
    );
    await mine(2);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await get(`/claims/${claim.data.id}`)).status).toBe("pending");
    await mine(1);
    const confirmed = await until("the claim confirmed", async () => {
      const row = await get(`/claims/${claim.data.id}`);
      return row.status === "confirmed" ? row : undefined;
    });
    expect(confirmed.edition).toBe(1);
    await api.process.stop();
  });
});
