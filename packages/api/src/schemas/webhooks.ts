/** Webhooks and their deliveries as answered, and as accepted. */
import { listQuery } from "./common.ts";
import { EventType } from "./events.ts";
import { SentTime, Timestamp, Uuid } from "./fields.ts";
import { z } from "./zod.ts";

/** A host name, or an IP literal (IPv6 in brackets, as URLs write it). */
const HOST = new RegExp(`${z.regexes.hostname.source}|^\\[[0-9a-fA-F:.]+\\]$`);

const Url = z
  .url({ protocol: /^https?$/, hostname: HOST })
  .max(2_000)
  .openapi({ example: "https://example.com/hooks/collectibles" });

const EventTypes = z
  .array(EventType)
  .min(1, "name at least one event type")
  .refine((types) => new Set(types).size === types.length, "lists an event type twice");

const Description = z.string().trim().max(500);

export const Webhook = z
  .strictObject({
    id: Uuid,
    organization_id: Uuid.nullable().openapi({
      description: "Events of this organization's subtree are sent; null: every event",
    }),
    url: z.string(),
    event_types: z.array(EventType),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().openapi({
      description: "Why the service disabled it (deliveries failing for days); null otherwise",
    }),
    failing_since: Timestamp.nullable().openapi({
      description: "Since when deliveries fail without a success; null while healthy",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Webhook");

export const WebhookWithSecret = Webhook.extend({
  secret: z.string().openapi({
    description:
      "The signing secret (Standard Webhooks, whsec_…): shown only in this answer. Verify deliveries with it",
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  }),
}).openapi("WebhookWithSecret");

export const CreateWebhookBody = z
  .strictObject({
    url: Url,
    event_types: EventTypes,
    description: Description.optional(),
    enabled: z.boolean().optional().openapi({ description: "Default true" }),
    organization_id: Uuid.optional().openapi({
      description:
        "Whose events (this organization's subtree); default: the key's organization, or every event for an admin key",
    }),
  })
  .openapi("CreateWebhook");

export const UpdateWebhookBody = z
  .strictObject({
    url: Url.optional(),
    event_types: EventTypes.optional(),
    description: Description.nullish(),
    enabled: z.boolean().optional().openapi({
      description: "true also re-enables a webhook the service disabled",
    }),
  })
  .openapi("UpdateWebhook");

export const DeliveryAttempt = z.strictObject({
  at: Timestamp,
  status_code: z.number().int().nullable().openapi({ description: "Null: no HTTP answer" }),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});

export const Delivery = z
  .strictObject({
    id: Uuid,
    event_id: Uuid,
    event_type: EventType,
    status: z.enum(["pending", "succeeded", "failed"]),
    attempts: z.array(DeliveryAttempt).openapi({ description: "The latest 20, oldest first" }),
    attempt_count: z.number().int(),
    next_attempt_at: Timestamp.nullable().openapi({ description: "Null once settled" }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("WebhookDelivery");

/** Paged as the resource lists are: page or cursor, limit, updated_since; and the status. */
export const DeliveriesQuery = listQuery({
  status: [z.enum(["pending", "succeeded", "failed"]), "Only deliveries in this state"],
});

export const ResendBody = z
  .strictObject({
    delivery_id: Uuid.optional().openapi({ description: "Send this delivery again" }),
    since: SentTime.optional().openapi({
      description: "Send again every delivery of an event at or after this time",
    }),
  })
  .refine((body) => (body.delivery_id === undefined) !== (body.since === undefined), {
    message: "give delivery_id or since, one of them",
  })
  .openapi("ResendWebhook");
