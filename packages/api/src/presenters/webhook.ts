/** Webhooks and their deliveries as answered. */
import type { DeliveryStatus } from "../db/eventSchema.ts";
import type { deliveriesOf, WebhookRow } from "../db/webhooks.ts";
import type { Delivery, Webhook } from "../schemas/webhooks.ts";
import type { z } from "../schemas/zod.ts";

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

type DeliveryRow = Awaited<ReturnType<typeof deliveriesOf>>[number];

export function presentDelivery({
  message,
  eventId,
  eventType,
}: DeliveryRow): z.input<typeof Delivery> {
  const status: DeliveryStatus = message.status;
  return {
    id: message.id,
    event_id: eventId,
    event_type: eventType,
    status,
    attempts: message.attempts,
    attempt_count: message.attemptCount,
    next_attempt_at: status === "pending" ? message.nextAttemptAt.toISOString() : null,
    created_at: message.createdAt.toISOString(),
    updated_at: message.updatedAt.toISOString(),
  };
}
