/**
 * Events and their webhook deliveries (an outbox): an event row is written in the transaction of
 * the state change it reports, with one message per webhook that wants it, so nothing reported
 * is lost when a process dies before sending, and nothing is sent for a change rolled back.
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import type { EventType } from "../domain/events.ts";
import { belongsTo, createdAt, deletedAt, generatedId, moment, updatedAt } from "./columns.ts";
import { organizations } from "./schema.ts";

/**
 * The last event position given out. Taking positions updates this one row, whose lock is held
 * to the commit: transactions that write events commit in position order, so a reader that has
 * seen position n has seen every position below it (the feed's cursor never skips).
 */
export const eventPosition = pgTable("event_position", {
  id: integer("id").primaryKey(),
  last: bigint("last", { mode: "number" }).notNull(),
});

export const events = pgTable(
  "events",
  {
    /** The feed's order (see `eventPosition`). */
    position: bigint("position", { mode: "number" }).primaryKey(),
    id: uuid("id").notNull().unique().defaultRandom(),
    type: text("type").$type<EventType>().notNull(),
    /** The organization of the object: whose keys and webhooks see the event. */
    organizationId: belongsTo("organization_id", () => organizations.id),
    objectId: uuid("object_id").notNull(),
    /** The object as GET answered it just after the change; filled once, then kept. */
    data: jsonb("data"),
    createdAt: createdAt(),
  },
  (t) => [index("events_unpresented_idx").on(t.position).where(sql`${t.data} is null`)],
);

export const webhooks = pgTable("webhooks", {
  id: generatedId(),
  /** Events of this organization's subtree are sent; null (an admin's webhook): every event. */
  organizationId: uuid("organization_id").references(() => organizations.id),
  url: text("url").notNull(),
  eventTypes: text("event_types").array().$type<EventType[]>().notNull(),
  description: text("description"),
  enabled: boolean("enabled").notNull().default(true),
  /** Why the service disabled it (an endpoint failing for days); null when a person did. */
  disabledReason: text("disabled_reason"),
  /** The signing secret (`whsec_…`): the service signs with it, so it is kept, not hashed. */
  secret: text("secret").notNull(),
  /** The secret before the last rotation, still signed with until `previousSecretUntil`. */
  previousSecret: text("previous_secret"),
  previousSecretUntil: moment("previous_secret_until"),
  /** When deliveries started failing without a success since; null while healthy. */
  failingSince: moment("failing_since"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  deletedAt: deletedAt(),
});

export type DeliveryStatus = "pending" | "succeeded" | "failed";

/** One attempt to deliver a message, as the deliveries list shows it. */
export interface DeliveryAttempt {
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** One event for one webhook, until delivered or given up on. */
export const webhookMessages = pgTable(
  "webhook_messages",
  {
    id: generatedId(),
    webhookId: belongsTo("webhook_id", () => webhooks.id),
    eventPosition: bigint("event_position", { mode: "number" })
      .notNull()
      .references(() => events.position),
    /** The event's object: messages for one object are sent in order. */
    objectId: uuid("object_id").notNull(),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    /** The latest attempts (at most 20), oldest first. */
    attempts: jsonb("attempts").$type<DeliveryAttempt[]>().notNull().default([]),
    attemptCount: integer("attempt_count").notNull().default(0),
    /** When it may be sent (again); a sender pushes it ahead while it sends (its lease). */
    nextAttemptAt: moment("next_attempt_at").notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhook_messages_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_messages_webhook_idx").on(t.webhookId, t.createdAt, t.id),
    index("webhook_messages_object_idx").on(t.webhookId, t.objectId, t.eventPosition),
  ],
);
