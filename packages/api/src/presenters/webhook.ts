/** Webhooks and their deliveries as answered. */
import type { DeliveryStatus } from "../db/eventSchema.ts";
import type { ListedDelivery, WebhookRow } from "../db/webhooks.ts";
import type { Delivery, Webhook } from "../schemas/webhooks.ts";
import type { z } from "../schemas/zod.ts";
import { timestampsOf } from "./resources.ts";

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentWebhook(row: WebhookRow): z.input<typeof Webhook> {
  return {
    id: row.id,
    organization_id: row.organizationId,
    url: row.url,
    event_types: row.eventTypes,
    description: row.description,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    failing_since: iso(row.failingSince),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentDelivery({
  message,
  eventId,
  eventType,
}: ListedDelivery): z.input<typeof Delivery> {
  const status: DeliveryStatus = message.status;
  return {
    id: message.id,
    event_id: eventId,
    event_type: eventType,
    status,
    attempts: message.attempts,
    attempt_count: message.attemptCount,
    next_attempt_at: status === "pending" ? message.nextAttemptAt.toISOString() : null,
    ...timestampsOf(message),
  };
}
