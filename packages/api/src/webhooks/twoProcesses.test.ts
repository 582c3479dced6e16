/**
 * Two API processes on one PostgreSQL both run a webhook sender: each message reaches the
 * receiver once, and never from both at the same time, however the two race for due messages
 * (the receiver answers slowly, so a second sender would overlap the first).
 */
import { describe, expect, it } from "vitest";
import { apiProcessesOnChainPerFile, jsonOf } from "../test/apiProcess.ts";
import { until } from "../test/faults.ts";
import { webhookReceiverPerFile } from "../test/perFile.ts";

const API_KEY = "ck_test_webhookstwoprocessesonepg01";
const CLAIMS = 20;

const receiver = webhookReceiverPerFile();

describe("two API processes on one PostgreSQL", () => {
  const { start, call, createCollectible } = apiProcessesOnChainPerFile({
    name: "webhooks-two-processes",
    apiKey: API_KEY,
    settings: (chain) => ({ ...chain.env, WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1" }),
  });

  it("deliver each message once and never both at once", async () => {
    const [one, two] = [await start(), await start()];
    const org = await jsonOf(await call(one.url, "POST", "/organizations", { name: "Shared" }));
    const hook = await call(two.url, "POST", "/webhooks", {
      url: `${receiver.url}/shared`,
      event_types: ["claim.confirmed"],
      organization_id: org.data.id,
    });
    expect(hook.status).toBe(201);
    const collectible = await jsonOf(
      await createCollectible(one.url, org.data.id, "Sent once", CLAIMS),
    );
    receiver.delayMs = 150;
    const claims = await Promise.all(
      Array.from({ length: CLAIMS }, async (_, i) =>
        jsonOf(
          await call(i % 2 ? one.url : two.url, "POST", "/claims", {
            collectible_id: collectible.data.id,
            email: `shared-${i}@example.com`,
          }),
        ),
      ),
    );
    const ids = new Set(claims.map((claim) => claim.data.id as string));
    const aboutOurs = () =>
      receiver.deliveries.filter(
        (d) => d.path === "/shared" && ids.has(JSON.parse(d.body).data?.id),
      );
    await until("every claim's confirmation delivered", async () =>
      new Set(aboutOurs().map((d) => JSON.parse(d.body).data.id)).size === CLAIMS
        ? true
        : undefined,
    );
    // A moment for a second sender to deliver again, were it going to.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(aboutOurs()).toHaveLength(CLAIMS);
    expect(receiver.mostAtOnce()).toBe(1);
    await Promise.all([one.process.stop(), two.process.stop()]);
  }, 300_000);
});
