/**
 * A webhook event survives an API crash between its commit and its delivery: the real API entry
 * runs as a child process and is killed with SIGKILL while it is sending a claim.confirmed (the
 * receiver holds the request open). Started again, the new process delivers that same message,
 * signed, once the dead sender's lease has run out.
 */
import { Webhook as Verifier } from "standardwebhooks";
import { expect, it } from "vitest";
import { apiProcessesOnChainPerFile, crash, jsonOf } from "../test/apiProcess.ts";
import { until } from "../test/faults.ts";
import { webhookReceiverPerFile } from "../test/perFile.ts";

const API_KEY = "ck_test_deliverycrashdeliverycrash01";

const receiver = webhookReceiverPerFile();

const { start, call, createCollectible } = apiProcessesOnChainPerFile({
  name: "delivery-crash",
  apiKey: API_KEY,
  settings: (chain) => ({
    ...chain.env,
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1",
    // A short timeout makes a short lease (2 × timeout + 5 s) for the restarted process to wait.
    WEBHOOK_TIMEOUT_MS: "1000",
    WEBHOOK_RETRY_BASE_MS: "500",
  }),
});

it("delivers an event after the API is killed while sending it", async () => {
  let { url, process: api } = await start();
  const org = await jsonOf(await call(url, "POST", "/organizations", { name: "Crash mid-send" }));
  const hook = await jsonOf(
    await call(url, "POST", "/webhooks", {
      url: `${receiver.url}/crash`,
      event_types: ["claim.confirmed"],
      organization_id: org.data.id,
    }),
  );
  const collectible = await jsonOf(
    await createCollectible(url, org.data.id, "Sent twice at most", 5),
  );
  // The receiver takes the first delivery and never answers it.
  receiver.delayMs = 600_000;
  const claim = await jsonOf(
    await call(url, "POST", "/claims", {
      collectible_id: collectible.data.id,
      email: "crash@example.com",
    }),
  );
  const [inFlight] = await until("the delivery in flight", async () => {
    const found = receiver.deliveries.filter((d) => d.path === "/crash");
    return found.length > 0 ? found : undefined;
  });
  await crash(api);

  receiver.delayMs = 0;
  ({ url, process: api } = await start());
  const delivered = await until(
    "the delivery after the restart",
    async () => receiver.deliveries.filter((d) => d.path === "/crash")[1],
    { timeoutMs: 60_000 },
  );
  expect(delivered.headers["webhook-id"]).toBe(inFlight?.headers["webhook-id"]);
  const event = new Verifier(hook.data.secret).verify(delivered.body, delivered.headers) as {
    type: string;
    data: { id: string };
  };
  expect(event.type).toBe("claim.confirmed");
  expect(event.data.id).toBe(claim.data.id);
  const settled = await until("the delivery recorded as succeeded", async () => {
    const res = await jsonOf(
      await call(url, "GET", `/webhooks/${hook.data.id}/deliveries?status=succeeded`),
    );
    return res.data[0];
  });
  expect(settled.event_id).toBe(inFlight?.headers["webhook-id"]);
  await api.stop();
}, 300_000);
