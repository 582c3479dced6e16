/**
 * Webhooks on the real chain, indexer and database, delivered to a real HTTP receiver on
 * loopback (allowed by configuration) and verified with the `standardwebhooks` package, as an
 * integrator verifies them.
 */
import { sql } from "drizzle-orm";
import { Webhook as Verifier } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { disableLongFailing } from "../../db/webhooks.ts";
import { confirmedObjects } from "../../test/confirmedObjects.ts";
import { until } from "../../test/faults.ts";
import { chainAppPerFile, webhookReceiverPerFile } from "../../test/perFile.ts";

const TIMEOUT = 180_000;
const { t, org } = chainAppPerFile({
  organization: "Hooked",
  env: {
    CONFIRM_TIMEOUT_MS: "60000",
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1",
    WEBHOOK_RETRY_BASE_MS: "500",
  },
});

const { confirmedCollectible, confirmedClaim } = confirmedObjects(t, org);

const receiver = webhookReceiverPerFile();

/** A webhook delivering to its own path of the receiver, `/<path>`. */
async function createWebhook(path: string, eventTypes: string[]) {
  const res = await t.call("POST", "/webhooks", {
    json: { url: `${receiver.url}/${path}`, event_types: eventTypes, organization_id: org.id },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string };
}

/** The deliveries to `/<path>` about `objectId`. */
const deliveriesAbout = (path: string, objectId: string) =>
  receiver.deliveries.filter(
    (d) => d.path === `/${path}` && JSON.parse(d.body).data?.id === objectId,
  );

function waitForDeliveries(path: string, objectId: string, count: number) {
  return until(`${count} deliveries about ${objectId} to /${path}`, async () => {
    const found = deliveriesAbout(path, objectId);
    return found.length >= count ? found : undefined;
  });
}

describe("webhooks", { timeout: TIMEOUT }, () => {
  it("delivers collectible.confirmed and claim.confirmed signed per Standard Webhooks, with the object GET answers", async () => {
    const hook = await createWebhook("both", ["collectible.confirmed", "claim.confirmed"]);
    const collectibleId = await confirmedCollectible("Announced");
    const claimId = await confirmedClaim(collectibleId, "announced@example.com");

    const verifier = new Verifier(hook.secret);
    const [collectibleDelivery] = await waitForDeliveries("both", collectibleId, 1);
    const [claimDelivery] = await waitForDeliveries("both", claimId, 1);
    for (const delivery of [collectibleDelivery, claimDelivery]) {
      if (!delivery) throw new Error("no delivery");
      // Throws unless the signature, id and timestamp are right.
      const verified = verifier.verify(delivery.body, delivery.headers) as { id: string };
      expect(delivery.headers["webhook-id"]).toBe(verified.id);
      expect(delivery.headers["content-type"]).toBe("application/json");
    }
    const claimEvent = JSON.parse(claimDelivery?.body ?? "");
    expect(claimEvent.type).toBe("claim.confirmed");
    expect(claimEvent.data).toEqual((await t.call("GET", `/claims/${claimId}`)).body.data);
    expect(JSON.parse(collectibleDelivery?.body ?? "").type).toBe("collectible.confirmed");

    const listed = await t.call("GET", `/webhooks/${hook.id}/deliveries`);
    expect(listed.status).toBe(200);
    const ours = listed.body.data.filter((d: { event_id: string }) => d.event_id === claimEvent.id);
    expect(ours).toMatchObject([{ status: "succeeded", attempt_count: 1, next_attempt_at: null }]);
    expect(ours[0].attempts[0].status_code).toBe(200);
  });

  it("retries a receiver answering 500 with growing delays, then records its success", async () => {
    const hook = await createWebhook("flaky", ["claim.confirmed"]);
    const collectibleId = await confirmedCollectible("Flaky receiver");
    const failFirst = 3;
    let failed = 0;
    receiver.answer = (d) => (d.path === "/flaky" && failed++ < failFirst ? 500 : 200);
    const claimId = await confirmedClaim(collectibleId, "flaky@example.com");
    const ours = await waitForDeliveries("flaky", claimId, failFirst + 1);
    expect(ours).toHaveLength(failFirst + 1);
    for (const d of ours) new Verifier(hook.secret).verify(d.body, d.headers);
    // One message: every attempt carries the same webhook-id.
    expect(new Set(ours.map((d) => d.headers["webhook-id"])).size).toBe(1);
    const gaps = ours.slice(1).map((d, i) => d.receivedAt - (ours[i]?.receivedAt ?? 0));
    expect(gaps[1]).toBeGreaterThan(gaps[0] ?? Infinity);
    expect(gaps[2]).toBeGreaterThan(gaps[1] ?? Infinity);

    const eventId = ours[0]?.headers["webhook-id"];
    const settled = await until("the delivery recorded as succeeded", async () => {
      const res = await t.call("GET", `/webhooks/${hook.id}/deliveries?status=succeeded`);
      return res.body.data.find((d: { event_id: string }) => d.event_id === eventId);
    });
    expect(settled.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([
      500, 500, 500, 200,
    ]);
    expect((await t.call("GET", `/webhooks/${hook.id}`)).body.data.failing_since).toBeNull();
  });

  it("marks a delivery failed once its retry window is over, sends it again on request, and disables a webhook failing for days", async () => {
    const hook = await createWebhook("down", ["claim.confirmed"]);
    const collectibleId = await confirmedCollectible("Down receiver");
    receiver.answer = (d) => (d.path === "/down" ? 503 : 200);
    const claimId = await confirmedClaim(collectibleId, "down@example.com");
    await waitForDeliveries("down", claimId, 1);
    // As if the event were a day old: the next failure is the last.
    await t.database.db.execute(
      sql`update webhook_messages set created_at = now() - interval '25 hours' where webhook_id = ${hook.id}`,
    );
    const failed = await until("the delivery marked failed", async () => {
      const res = await t.call("GET", `/webhooks/${hook.id}/deliveries?status=failed`);
      return res.body.data[0];
    });
    expect(failed).toMatchObject({ status: "failed", next_attempt_at: null });
    expect(failed.attempt_count).toBeGreaterThanOrEqual(2);

    // The receiver is fixed; the operator sends that delivery again.
    receiver.answer = () => 200;
    const resent = await t.call("POST", `/webhooks/${hook.id}/resend`, {
      json: { delivery_id: failed.id },
    });
    expect(resent.status).toBe(202);
    expect(resent.body.data.queued).toBe(1);
    await until("the re-sent delivery succeeded", async () => {
      const res = await t.call("GET", `/webhooks/${hook.id}/deliveries?status=succeeded`);
      return res.body.data.find((d: { id: string }) => d.id === failed.id);
    });
    const delivered = deliveriesAbout("down", claimId);
    expect(delivered.at(-1)?.headers["webhook-id"]).toBe(failed.event_id);

    // Everything since a time: the settled delivery goes once more.
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const again = await t.call("POST", `/webhooks/${hook.id}/resend`, { json: { since } });
    expect(again.body.data.queued).toBe(1);
    await waitForDeliveries("down", claimId, delivered.length + 1);
    const unknown = await t.call("POST", `/webhooks/${hook.id}/resend`, {
      json: { delivery_id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(unknown.status).toBe(404);
    const yearZero = await t.call("POST", `/webhooks/${hook.id}/resend`, {
      json: { since: "0000-01-01T00:00:00Z" },
    });
    expect(yearZero.status).toBe(400);

    // Failing for six days: the service disables the webhook and says why.
    await t.database.db.execute(
      sql`update webhooks set failing_since = now() - interval '6 days' where id = ${hook.id}`,
    );
    await disableLongFailing(t.database.db, 120);
    const disabled = (await t.call("GET", `/webhooks/${hook.id}`)).body.data;
    expect(disabled.enabled).toBe(false);
    expect(disabled.disabled_reason).toMatch(/^every delivery failed since \d{4}-/);
    const enabled = await t.call("PATCH", `/webhooks/${hook.id}`, { json: { enabled: true } });
    expect(enabled.body.data).toMatchObject({
      enabled: true,
      disabled_reason: null,
      failing_since: null,
    });
  });

  it("pages a webhook's deliveries as every list pages: by cursor, oldest first, none skipped or repeated", async () => {
    const hook = await createWebhook("paged", ["claim.confirmed"]);
    const collectibleId = await confirmedCollectible("Paged deliveries");
    const items = Array.from({ length: 5 }, (_, i) => ({
      collectible_id: collectibleId,
      email: `paged-${i}@example.com`,
    }));
    const batch = await t.call("POST", "/claims/batch", { json: { items } });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    const claimIds: string[] = batch.body.data.map(
      (item: { claim: { id: string } }) => item.claim.id,
    );
    const all = await until("five deliveries settled", async () => {
      const res = await t.call("GET", `/webhooks/${hook.id}/deliveries?status=succeeded&limit=100`);
      return res.body.pagination.count === items.length ? res.body : undefined;
    });
    expect(all.data).toHaveLength(items.length);

    const seen: { id: string; event_id: string; created_at: string }[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const res = await t.call("GET", `/webhooks/${hook.id}/deliveries?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.pagination).toMatchObject({ size: 2, count: items.length, pages: 3 });
      seen.push(...res.body.data);
      cursor = res.body.pagination.next_cursor;
    } while (cursor);
    expect(seen.map((d) => d.id)).toEqual(all.data.map((d: { id: string }) => d.id));
    const times = seen.map((d) => d.created_at);
    expect([...times].sort()).toEqual(times);
    // One delivery per claim of the batch.
    const feed = (await t.call("GET", "/events?limit=100")).body.data as {
      id: string;
      data: { id: string };
    }[];
    const about = seen.map((d) => feed.find((e) => e.id === d.event_id)?.data.id);
    expect(new Set(about)).toEqual(new Set(claimIds));

    const second = await t.call("GET", `/webhooks/${hook.id}/deliveries?limit=2&page=2`);
    expect(second.body.data.map((d: { id: string }) => d.id)).toEqual(
      seen.slice(2, 4).map((d) => d.id),
    );
  });

  it("signs with both the new and the old secret for a day after a rotation", async () => {
    const hook = await createWebhook("rotated", ["claim.confirmed"]);
    const rotated = await t.call("POST", `/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.data.secret;
    expect(newSecret).not.toBe(hook.secret);
    const collectibleId = await confirmedCollectible("Rotated");
    const claimId = await confirmedClaim(collectibleId, "rotated@example.com");
    const [delivery] = await waitForDeliveries("rotated", claimId, 1);
    if (!delivery) throw new Error("no delivery");
    expect(delivery.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(() => new Verifier(newSecret).verify(delivery.body, delivery.headers)).not.toThrow();
    expect(() => new Verifier(hook.secret).verify(delivery.body, delivery.headers)).not.toThrow();
  });
});
