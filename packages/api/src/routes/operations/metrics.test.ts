/**
 * GET /metrics on the real chain, indexer and database, as Prometheus scrapes it: the series an
 * operator alerts on, after a claim and a webhook delivery that fails, with requests labelled by
 * their endpoint's path template; and only for an admin key.
 */
import { describe, expect, it } from "vitest";
import { confirmedObjects } from "../../test/confirmedObjects.ts";
import { until } from "../../test/faults.ts";
import { chainAppPerFile } from "../../test/perFile.ts";

const TIMEOUT = 180_000;
const { t, org } = chainAppPerFile({
  organization: "Measured",
  env: { CONFIRM_TIMEOUT_MS: "60000", WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1" },
});
const { confirmedCollectible, confirmedClaim } = confirmedObjects(t, org);

/** The value of the series `name{labels}` in a Prometheus text answer; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}) {
  for (const line of text.split("\n")) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]),
    );
    if (Object.entries(labels).every(([k, v]) => has[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe("GET /metrics", () => {
  it(
    "answers, after a claim, requests by endpoint and status, the relayer, finality, the indexer, webhooks and the pool",
    async () => {
      // Nothing listens on port 9: every attempt fails, and the message stays queued.
      const hook = await t.call("POST", "/webhooks", {
        json: { url: "http://127.0.0.1:9/hook", event_types: ["claim.confirmed"] },
      });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      const collectibleId = await confirmedCollectible("Measured edition");
      const claimId = await confirmedClaim(collectibleId, "measured@example.com");
      expect((await t.call("GET", `/claims/${claimId}`)).status).toBe(200);

      const text = await until("a failed webhook attempt counted", async () => {
        const res = await t.call("GET", "/metrics");
        expect(res.status).toBe(200);
        const body = res.raw.toString("utf8");
        return (sample(body, "collectibles_webhook_attempts", { status: "pending" }) ?? 0) > 0
          ? body
          : undefined;
      });
      const res = await t.call("GET", "/metrics");
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);

      const claimed = { method: "POST", route: "/claims", status: "201" };
      expect(sample(text, "collectibles_http_requests_total", claimed)).toBeGreaterThanOrEqual(1);
      expect(
        sample(text, "collectibles_http_request_duration_seconds_count", claimed),
      ).toBeGreaterThanOrEqual(1);
      const read = { method: "GET", route: "/claims/{id}", status: "200" };
      expect(sample(text, "collectibles_http_requests_total", read)).toBeGreaterThanOrEqual(1);
      // The template, never the raw path: one series however many ids are read.
      expect(text).not.toContain(claimId);

      for (const kind of ["claim", "collectible"]) {
        expect(sample(text, "collectibles_relayer_pending", { kind })).toBe(0);
        expect(sample(text, "collectibles_relayer_oldest_pending_seconds", { kind })).toBe(0);
      }
      expect(sample(text, "collectibles_relayer_transactions_in_flight")).toBe(0);
      // The claim is confirmed, and its block is not final yet (64 blocks on the local chain).
      expect(sample(text, "collectibles_confirmed_not_final", { kind: "claim" })).toBeGreaterThan(
        0,
      );
      expect(sample(text, "collectibles_last_reorg_depth_blocks")).toBe(0);
      expect(sample(text, "collectibles_relayer_fee_cap_gwei")).toBe(500);
      expect(sample(text, "collectibles_relayer_max_fee_per_gas_gwei")).toBe(0);
      expect(sample(text, "collectibles_indexer_lag_blocks")).toBeGreaterThanOrEqual(0);
      expect(sample(text, "collectibles_webhook_messages", { status: "pending" })).toBe(1);
      expect(sample(text, "collectibles_db_pool_connections", { state: "total" })).toBeGreaterThan(
        0,
      );
      for (const state of ["idle", "waiting"]) {
        expect(sample(text, "collectibles_db_pool_connections", { state })).toBeGreaterThanOrEqual(
          0,
        );
      }
    },
    TIMEOUT,
  );

  it(
    "shows a claim burst while it runs: a backlog, transactions in flight and their fee, then none",
    async () => {
      const collectibleId = await confirmedCollectible("Burst edition", { totalCount: 40 });
      const scrape = async () => (await t.call("GET", "/metrics")).raw.toString("utf8");
      const posted = Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          t.call("POST", "/claims", {
            json: { collectible_id: collectibleId, email: `burst-${i}@example.com` },
          }),
        ),
      );
      const seen = { pending: 0, inFlight: 0, fee: 0 };
      // Each scrape's backlog gauges come from one reading: some are pending exactly when the
      // oldest has an age (a gauge filled by the scrape before would disagree as it changes).
      const disagreements: string[] = [];
      const during = async () => {
        const text = await scrape();
        const pending = sample(text, "collectibles_relayer_pending", { kind: "claim" }) ?? 0;
        const oldest =
          sample(text, "collectibles_relayer_oldest_pending_seconds", { kind: "claim" }) ?? 0;
        if (pending > 0 !== oldest > 0)
          disagreements.push(`${pending} pending, oldest ${oldest} s`);
        seen.pending = Math.max(seen.pending, pending);
        seen.inFlight = Math.max(
          seen.inFlight,
          sample(text, "collectibles_relayer_transactions_in_flight") ?? 0,
        );
        seen.fee = Math.max(
          seen.fee,
          sample(text, "collectibles_relayer_max_fee_per_gas_gwei") ?? 0,
        );
      };
      let settled = false;
      void posted.then(() => {
        settled = true;
      });
      while (!settled) await during();
      await during();
      expect(seen.pending, JSON.stringify(seen)).toBeGreaterThan(0);
      expect(disagreements).toEqual([]);
      expect(seen.inFlight, JSON.stringify(seen)).toBeGreaterThan(0);
      expect(seen.fee, JSON.stringify(seen)).toBeGreaterThan(0);
      expect(seen.fee).toBeLessThanOrEqual(500);
      const after = await until("the burst confirmed", async () => {
        const text = await scrape();
        return sample(text, "collectibles_relayer_pending", { kind: "claim" }) === 0
          ? text
          : undefined;
      });
      expect(sample(after, "collectibles_relayer_transactions_in_flight")).toBe(0);
      expect(sample(after, "collectibles_relayer_max_fee_per_gas_gwei")).toBe(0);
    },
    TIMEOUT,
  );

  it("refuses a request without a key (401) and a key limited to an organization (403)", async () => {
    const anonymous = await t.call("GET", "/metrics", { key: null });
    expect(anonymous.status).toBe(401);
    const scoped = await t.call("GET", "/metrics", { key: await t.createKey(org.id) });
    expect(scoped.status).toBe(403);
    expect(scoped.body.error.code).toBe("admin_key_required");
    expect(scoped.body.error.message).toMatch(/^Reading metrics needs an admin key/);
  });
});
