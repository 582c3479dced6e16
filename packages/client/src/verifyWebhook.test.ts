/**
 * Webhook signatures: checked against the `standardwebhooks` package signing the same delivery,
 * refused when anything is off, and accepted on a real delivery the API sends to a loopback
 * receiver, with the secret the API gave.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { thrownMessage } from "@collectibles/devkit/vitest";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createCollectiblesClient, unwrap } from "./index.ts";
import { verifyWebhook, WebhookVerificationError } from "./verifyWebhook.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const body = JSON.stringify({ id: "msg_1", type: "claim.confirmed", data: null });

/** Headers as `standardwebhooks` signs them, `at` seconds from now. */
function signed(id: string, at: Date, secret = SECRET, payload = body) {
  const signature = new StandardWebhook(secret).sign(id, at, payload);
  return {
    "webhook-id": id,
    "webhook-timestamp": Math.floor(at.getTime() / 1000).toString(),
    "webhook-signature": signature,
  };
}

const refusal = (run: () => unknown) => thrownMessage(run, WebhookVerificationError);

describe("verifyWebhook", () => {
  it("accepts what standardwebhooks signs, from Node headers or Fetch Headers, string or bytes", () => {
    const headers = signed("msg_1", new Date());
    expect(verifyWebhook({ secret: SECRET, headers, body })).toEqual(JSON.parse(body));
    expect(
      verifyWebhook({ secret: SECRET, headers: new Headers(headers), body: Buffer.from(body) }),
    ).toEqual(JSON.parse(body));
  });

  it("accepts any of several signatures (a rotated secret's grace period)", () => {
    const other = "whsec_b2xkIHNlY3JldCBvbGQgc2VjcmV0IG9sZA==";
    const headers = signed("msg_2", new Date(), other);
    const current = signed("msg_2", new Date())["webhook-signature"];
    headers["webhook-signature"] = `${headers["webhook-signature"]} ${current}`;
    expect(verifyWebhook({ secret: SECRET, headers, body })).toEqual(JSON.parse(body));
  });

  it("refuses a changed body, another secret, a changed id, a missing header", () => {
    const headers = signed("msg_3", new Date());
    expect(refusal(() => verifyWebhook({ secret: SECRET, headers, body: `${body} ` }))).toMatch(
      /no webhook-signature matches/,
    );
    const other = "whsec_b2xkIHNlY3JldCBvbGQgc2VjcmV0IG9sZA==";
    expect(refusal(() => verifyWebhook({ secret: other, headers, body }))).toMatch(/matches/);
    expect(
      refusal(() =>
        verifyWebhook({ secret: SECRET, headers: { ...headers, "webhook-id": "msg_4" }, body }),
      ),
    ).toMatch(/matches/);
    const { "webhook-signature": _, ...unsigned } = headers;
    expect(refusal(() => verifyWebhook({ secret: SECRET, headers: unsigned, body }))).toMatch(
      /missing webhook-signature/,
    );
  });

  it("refuses a timestamp more than 5 minutes from now, either way, and accepts one within", () => {
    const now = new Date();
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    for (const offset of [-301, 301]) {
      const headers = signed("msg_5", at(offset));
      expect(refusal(() => verifyWebhook({ secret: SECRET, headers, body, now }))).toMatch(
        /5 minutes/,
      );
    }
    for (const offset of [-299, 299]) {
      const headers = signed("msg_5", at(offset));
      expect(verifyWebhook({ secret: SECRET, headers, body, now })).toEqual(JSON.parse(body));
    }
  });
});

describe("a real delivery from the API", () => {
  const received: { headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  it("verifies with the webhook's secret and gives the typed event", async () => {
    const api = createCollectiblesClient({ baseUrl: inject("apiUrl"), apiKey: inject("apiKey") });
    const { data: org } = await unwrap(api.POST("/organizations", { body: { name: "Hooked" } }));
    const { data: hook } = await unwrap(
      api.POST("/webhooks", {
        body: { url, event_types: ["collectible.confirmed"], organization_id: org.id },
      }),
    );
    const { data: collectible } = await unwrap(
      api.POST("/collectibles", {
        body: { organization_id: org.id, name: "Announced", total_count: 1 },
      }),
    );
    await expect.poll(() => received.length, { timeout: 60_000, interval: 200 }).toBeGreaterThan(0);
    const [delivery] = received;
    if (!delivery) throw new Error("no delivery");
    const event = verifyWebhook({
      secret: hook.secret,
      headers: delivery.headers,
      body: delivery.body,
    });
    expect(event).toMatchObject({
      id: delivery.headers["webhook-id"],
      type: "collectible.confirmed",
      data: { id: collectible.id, status: "confirmed" },
    });
    expect(() =>
      verifyWebhook({ secret: SECRET, headers: delivery.headers, body: delivery.body }),
    ).toThrow(WebhookVerificationError);
  });
});
