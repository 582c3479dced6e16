/**
 * Checks that a webhook delivery comes from the API, as the Standard Webhooks specification says
 * (https://www.standardwebhooks.com): `webhook-signature` holds one or more space-separated
 * `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the bytes of
 * the secret after `whsec_`, and a `webhook-timestamp` more than 5 minutes from now is refused
 * (a replayed old delivery). Written on node:crypto rather than on the `standardwebhooks` package:
 * it is twenty lines, uses the platform's HMAC and constant-time comparison, and keeps the
 * client's only dependency openapi-fetch; the tests check it against `standardwebhooks`.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { components } from "./schema.ts";

/** What the API delivers: the same object GET /events lists. */
export type WebhookEvent = components["schemas"]["Event"];

export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;
const SECRET_PREFIX = "whsec_";

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

export interface WebhookDelivery {
  /** The secret the API gave when the webhook was created (`whsec_...`). */
  secret: string;
  /** The request's headers: a Fetch `Headers` or Node's `req.headers`. */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The raw body exactly as received: parsing and re-serializing it breaks the signature. */
  body: string | Uint8Array;
  /** The time to check the timestamp against (now). */
  now?: Date;
}

/** The delivered event once its signature and timestamp check out; else throws. */
export function verifyWebhook(delivery: WebhookDelivery): WebhookEvent {
  const header = (name: string) => {
    const value =
      delivery.headers instanceof Headers ? delivery.headers.get(name) : delivery.headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (!text) throw new WebhookVerificationError(`missing ${name} header`);
    return text;
  };
  const id = header("webhook-id");
  const timestamp = header("webhook-timestamp");
  const signatures = header("webhook-signature");

  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(seconds)) {
    throw new WebhookVerificationError("webhook-timestamp is not a number of seconds");
  }
  const now = Math.floor((delivery.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - seconds) > WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookVerificationError("webhook-timestamp is more than 5 minutes from now");
  }

  if (!delivery.secret.startsWith(SECRET_PREFIX)) {
    throw new WebhookVerificationError("the secret does not start with whsec_");
  }
  const key = Buffer.from(delivery.secret.slice(SECRET_PREFIX.length), "base64");
  const body =
    typeof delivery.body === "string" ? Buffer.from(delivery.body) : Buffer.from(delivery.body);
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest();
  // One signature per secret in use (two while a rotated secret's grace period runs).
  const matches = signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2);
    if (version !== "v1" || !signature) return false;
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError("no webhook-signature matches the secret");
  return JSON.parse(body.toString("utf8")) as WebhookEvent;
}
