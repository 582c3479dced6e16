/**
 * A chain that stalls for a minute (the node frozen with SIGSTOP, then thawed) in the middle of a
 * claim burst: /ready answers 503 naming the lag while it lasts, and every claim accepted during
 * the stall is confirmed within 30 s of the chain answering again (the indexer, whose RPC client
 * stays throttled after such a stall, is restarted by pnpm start when it stops advancing).
 */
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { confirmed, confirmedCollectible } from "./confirmations.ts";
import { apiOf, dataFolder, killStacks, startStack } from "./localStack.ts";

const STALL_MS = 60_000;
const dataDir = dataFolder("e2e-stall");
afterAll(() => {
  killStacks();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a 60 s chain stall mid-burst", () => {
  it("makes /ready answer 503 with the lag, and every claim confirms within 30 s after", async () => {
    // 202 at once while the chain is frozen; unready after 5 s of it instead of 30.
    const env = { CONFIRM_TIMEOUT_MS: "0", READY_LAG_GRACE_SECONDS: "5" };
    const stack = await startStack({ dataDir, env });
    const api = apiOf(stack, stack.printedKey() as string);
    const { collectible } = await confirmedCollectible(api, "Stall", "Patient", 20);
    const collectibleId: string = collectible.id;
    const chain = stack.pidOf(/anvil/) as number;
    expect(chain).toBeDefined();

    process.kill(chain, "SIGSTOP");
    const stalledAt = Date.now();
    const claims: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await api("POST", "/claims", {
        collectible_id: collectibleId,
        email: `patient-${i}@e2e.example`,
      });
      expect(res.status).toBe(202);
      claims.push(res.body.data.id);
    }
    let unready:
      | { status: number; body: { error?: { details?: { name: string; message?: string }[] } } }
      | undefined;
    while (Date.now() - stalledAt < STALL_MS) {
      const res = await fetch(`${stack.apiUrl}/ready`);
      if (res.status === 503) unready = { status: 503, body: (await res.json()) as never };
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
    process.kill(chain, "SIGCONT");
    const resumedAt = Date.now();

    const sync = unready?.body.error?.details?.find((check) => check.name === "sync");
    expect(sync?.message).toMatch(/the chain does not answer for \d+ s: .*relayer backlog 10/);
    // The promise: confirmed within 30 s of the chain answering again.
    for (const id of claims) {
      await confirmed(api, `/claims/${id}`, Math.max(0, 30_000 - (Date.now() - resumedAt)));
    }
    const tookMs = Date.now() - resumedAt;
    console.log(`every claim confirmed ${(tookMs / 1000).toFixed(1)} s after the chain resumed`);
    expect((await fetch(`${stack.apiUrl}/ready`)).status).toBe(200);
    await stack.stop();
  });
});
