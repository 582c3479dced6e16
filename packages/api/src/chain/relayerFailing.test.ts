/**
 * A relayer that cannot get anything mined says so: when every round fails for longer than
 * READY_LAG_GRACE_SECONDS (here: its account has no funds for gas), `/ready` answers 503 naming
 * the error, and 200 again once a round succeeds.
 */
import { describe, expect, it } from "vitest";
import { apiProcessesOnChainPerFile, jsonOf } from "../test/apiProcess.ts";
import { until } from "../test/faults.ts";

const API_KEY = "ck_test_relayerfailingrelayerfailing";
/** Hardhat's account #0, the relayer's key on the local chain by default. */
const RELAYER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

const { start, call, createCollectible, stack } = apiProcessesOnChainPerFile({
  name: "relayer-failing",
  apiKey: API_KEY,
  settings: (chain) => ({ ...chain.env, READY_LAG_GRACE_SECONDS: "2", CONFIRM_TIMEOUT_MS: "0" }),
});

const rpc = (method: string, params: unknown[] = []) =>
  stack.client.request({ method, params } as never) as Promise<unknown>;

describe("a relayer whose sends keep failing", { timeout: 120_000 }, () => {
  it("answers /ready 503 naming the error, then 200 once it sends again", async () => {
    const api = await start();
    const balance = await stack.client.getBalance({ address: RELAYER });
    await rpc("anvil_setBalance", [RELAYER, "0x0"]);
    const org = await jsonOf(await call(api.url, "POST", "/organizations", { name: "Broke" }));
    const created = await jsonOf(await createCollectible(api.url, org.data.id, "Unpaid", 2));

    const unready = await until("/ready 503", async () => {
      const res = await call(api.url, "GET", "/ready");
      return res.status === 503 ? jsonOf(res) : undefined;
    });
    const relayer = unready.error.details.find((c: { name: string }) => c.name === "relayer");
    expect(relayer.status).toBe("down");
    expect(relayer.message).toMatch(/^sends failing for \d+ s: .*(fund|balance)/i);

    await rpc("anvil_setBalance", [RELAYER, `0x${balance.toString(16)}`]);
    await until("the collectible confirmed", async () => {
      const res = await jsonOf(await call(api.url, "GET", `/collectibles/${created.data.id}`));
      return res.data.status === "confirmed" ? true : undefined;
    });
    await until("/ready 200", async () =>
      (await call(api.url, "GET", "/ready")).status === 200 ? true : undefined,
    );
    await api.process.stop();
  });
});
