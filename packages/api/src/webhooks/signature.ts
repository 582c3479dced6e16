/**
 * Signing as the Standard Webhooks specification says (https://www.standardwebhooks.com): the
 * secret is `whsec_` and base64 bytes; `webhook-signature` is `v1,` and the base64 HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>`, one per secret in use, separated by spaces. Any
 * Standard Webhooks or Svix library verifies it.
 */
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(24).toString("base64");
}

function sign(secret: string, content: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), "base64");
  return `v1,${createHmac("sha256", key).update(content).digest("base64")}`;
}

/** The headers of one delivery; `secrets` are the current one and, in its grace period, the old. */
export function signedHeaders(
  id: string,
  timestamp: Date,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  const seconds = Math.floor(timestamp.getTime() / 1000).toString();
  const content = `${id}.${seconds}.${body}`;
  return {
    "webhook-id": id,
    "webhook-timestamp": seconds,
    "webhook-signature": secrets.map((secret) => sign(secret, content)).join(" "),
  };
}
