/**
 * Delivers webhook messages: every API process runs one. Each round presents new events, takes
 * the messages that are due (a lease in the database keeps any other sender off them while they
 * are sent, so several processes never send one message at once), posts them, and records each
 * attempt: success settles the message; a failure is retried with exponential backoff and
 * jitter until WEBHOOK_RETRY_FOR_HOURS after the event, then the message is marked failed.
 * A webhook failing for WEBHOOK_DISABLE_AFTER_HOURS is disabled, with the reason on it.
 */

import { databaseErrorText } from "./db/driver/pgError.ts";
import {
  disableLongFailing,
  recordAttempt,
  type TakenMessage,
  takeDueMessages,
} from "./db/webhooks.ts";
import type { RouteDeps } from "./deps.ts";
import { pollLoop } from "./lib/pollLoop.ts";
import { eventBody, presentNewEvents } from "./presenters/events.ts";
import { postWebhook } from "./webhooks/post.ts";
import { signedHeaders } from "./webhooks/signature.ts";

/** Messages sent at once per process. */
const AT_ONCE = 16;
/** How often an idle sender looks for work: a second, or sooner when retries are quicker. */
const IDLE_POLL_MS = 1_000;
const LONGEST_DELAY_MS = 3_600_000;
const DISABLE_CHECK_EVERY_MS = 60_000;

/**
 * The delay before attempt `n + 1` after `n` failed: base·2^(n-1) ±20%, so that receivers coming
 * back from an outage are not hit by every sender at once, and at most an hour.
 */
export function retryDelayMs(baseMs: number, failedAttempts: number): number {
  // Capped below the hour by the jitter's top, so that the longest delays are spread too.
  const exponential = Math.min(
    baseMs * 2 ** Math.min(failedAttempts - 1, 30),
    LONGEST_DELAY_MS / 1.2,
  );
  return Math.round(exponential * (0.8 + Math.random() * 0.4));
}

export function startWebhookSender(deps: RouteDeps): { stop(): Promise<void> } {
  const { config, db, logger } = deps;
  // Longer than any one attempt can take, so a lease outlives the send it covers.
  const leaseMs = config.WEBHOOK_TIMEOUT_MS * 2 + 5_000;
  const idlePollMs = Math.min(IDLE_POLL_MS, Math.ceil(config.WEBHOOK_RETRY_BASE_MS / 4));
  let lastDisableCheck = 0;

  async function deliver(message: TakenMessage): Promise<void> {
    const body = JSON.stringify(
      eventBody(
        {
          id: message.eventId,
          type: message.eventType as never,
          createdAt: message.eventTimestamp,
        },
        message.data,
      ),
    );
    const secrets = [message.secret, message.previousSecret].filter((s): s is string => !!s);
    const started = performance.now();
    const at = new Date();
    const outcome = await postWebhook(
      message.url,
      body,
      signedHeaders(message.eventId, at, body, secrets),
      {
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS,
      },
    );
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const attempt = {
      at: at.toISOString(),
      status_code: outcome.statusCode,
      error: ok ? null : (outcome.error ?? `answered ${outcome.statusCode}`),
      duration_ms: Math.round(performance.now() - started),
    };
    let nextAttemptAt: Date | null = null;
    if (!ok) {
      const next =
        Date.now() + retryDelayMs(config.WEBHOOK_RETRY_BASE_MS, message.attemptCount + 1);
      const giveUpAt = message.createdAt.getTime() + config.WEBHOOK_RETRY_FOR_HOURS * 3_600_000;
      if (next <= giveUpAt) nextAttemptAt = new Date(next);
    }
    await recordAttempt(db, message, attempt, { ok, nextAttemptAt });
    if (!ok) {
      logger.warn(
        { webhook: message.webhookId, event: message.eventId, ...attempt, retry: nextAttemptAt },
        nextAttemptAt ? "webhook delivery failed; will retry" : "webhook delivery failed for good",
      );
    }
  }

  async function round(): Promise<number> {
    await presentNewEvents(deps);
    const taken = await takeDueMessages(db, AT_ONCE, leaseMs);
    await Promise.all(taken.map(deliver));
    if (Date.now() - lastDisableCheck > DISABLE_CHECK_EVERY_MS) {
      lastDisableCheck = Date.now();
      for (const webhook of await disableLongFailing(db, config.WEBHOOK_DISABLE_AFTER_HOURS)) {
        logger.warn({ webhook: webhook.id, reason: webhook.disabledReason }, "webhook disabled");
      }
    }
    return taken.length;
  }

  return pollLoop(
    async () => (await round()) > 0,
    idlePollMs,
    (error) => logger.warn({ err: databaseErrorText(error) }, "webhook round failed"),
  );
}
