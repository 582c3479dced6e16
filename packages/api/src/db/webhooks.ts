/** Webhooks and their messages: what a key manages, and what the sender takes and records. */

import { and, eq, gte, isNull, ne, type SQL, sql } from "drizzle-orm";
import type { Scope } from "../domain/auth.ts";
import type { EventType } from "../domain/events.ts";
import { type Queryable, rowsOf } from "./driver/client.ts";
import type { Shown } from "./driver/pageStatements.ts";
import { findOf, listOf } from "./driver/recordReads.ts";
import { type DeliveryAttempt, events, webhookMessages, webhooks } from "./eventSchema.ts";
import { scopeCondition } from "./scope.ts";

export type WebhookRow = typeof webhooks.$inferSelect;
export type NewWebhook = typeof webhooks.$inferInsert;
export type WebhookChange = Partial<
  Pick<NewWebhook, "url" | "eventTypes" | "description" | "enabled">
>;

/** Attempts kept per message; older ones only count in attempt_count. */
const KEPT_ATTEMPTS = 20;

function visibleWebhook(scope: Scope): SQL | undefined {
  return and(isNull(webhooks.deletedAt), scopeCondition(scope, webhooks.organizationId));
}

export async function insertWebhook(q: Queryable, values: NewWebhook): Promise<WebhookRow> {
  const [row] = await q.insert(webhooks).values(values).returning();
  if (!row) throw new Error("inserting a webhook returned nothing");
  return row;
}

export function listWebhooks(q: Queryable, scope: Scope): Promise<WebhookRow[]> {
  return q
    .select()
    .from(webhooks)
    .where(visibleWebhook(scope))
    .orderBy(webhooks.createdAt, webhooks.id);
}

/** The webhook `id` if the scope may see it (and it is not deleted). */
export const findWebhook = findOf(webhooks, visibleWebhook);

/** Applies `change` (and anything else the service sets) to a visible webhook. */
export async function updateWebhook(
  q: Queryable,
  scope: Scope,
  id: string,
  change: Partial<NewWebhook>,
): Promise<WebhookRow | undefined> {
  const [row] = await q
    .update(webhooks)
    .set({ ...change, updatedAt: sql`now()` })
    .where(and(eq(webhooks.id, id), visibleWebhook(scope)))
    .returning();
  return row;
}

/** A message the sender took, with what it needs to send it. */
export interface TakenMessage {
  id: string;
  webhookId: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  eventId: string;
  eventType: string;
  eventTimestamp: Date;
  data: unknown;
  attemptCount: number;
  createdAt: Date;
}

/**
 * Takes up to `limit` messages that are due, pushing their next attempt `leaseMs` ahead so no
 * other sender (in this process or another) takes them while they are sent. A message waits
 * while an earlier one for the same object and webhook is pending: each object's events arrive
 * in order. Only events already presented are taken.
 */
export async function takeDueMessages(
  q: Queryable,
  limit: number,
  leaseMs: number,
): Promise<TakenMessage[]> {
  const result = await q.execute(sql`
    with due as (
      select m.id from webhook_messages m
      join webhooks w on w.id = m.webhook_id
      join events e on e.position = m.event_position
      where m.status = 'pending' and m.next_attempt_at <= now()
        and w.enabled and w.deleted_at is null and e.data is not null
        and not exists (
          select 1 from webhook_messages earlier
          where earlier.webhook_id = m.webhook_id and earlier.object_id = m.object_id
            and earlier.event_position < m.event_position and earlier.status = 'pending'
        )
      order by m.event_position
      limit ${limit}
      for update of m skip locked
    )
    update webhook_messages m
    set next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000})
    from due, webhooks w, events e
    where m.id = due.id and w.id = m.webhook_id and e.position = m.event_position
    returning m.id, m.webhook_id, w.url, w.secret,
      case when w.previous_secret_until > now() then w.previous_secret end as previous_secret,
      e.id as event_id, e.type as event_type, e.created_at as event_timestamp, e.data,
      m.attempt_count, m.created_at`);
  return rowsOf<Record<string, unknown>>(result).map((row) => ({
    id: row.id as string,
    webhookId: row.webhook_id as string,
    url: row.url as string,
    secret: row.secret as string,
    previousSecret: (row.previous_secret as string | null) ?? null,
    eventId: row.event_id as string,
    eventType: row.event_type as string,
    eventTimestamp: new Date(row.event_timestamp as string),
    data: typeof row.data === "string" ? JSON.parse(row.data) : row.data,
    attemptCount: Number(row.attempt_count),
    createdAt: new Date(row.created_at as string),
  }));
}

/**
 * Records an attempt: `nextAttemptAt` null settles the message (`succeeded` when `ok`, else
 * `failed`); a date keeps it pending until then. The webhook's failing_since follows.
 */
export async function recordAttempt(
  q: Queryable,
  message: Pick<TakenMessage, "id" | "webhookId">,
  attempt: DeliveryAttempt,
  outcome: { ok: boolean; nextAttemptAt: Date | null },
): Promise<void> {
  const status = outcome.ok ? "succeeded" : outcome.nextAttemptAt ? "pending" : "failed";
  await q.transaction(async (tx) => {
    await tx
      .update(webhookMessages)
      .set({
        status,
        attempts: sql`(
          select coalesce(jsonb_agg(a order by n), '[]'::jsonb) from (
            select a, n from jsonb_array_elements(${webhookMessages.attempts} || ${JSON.stringify([attempt])}::jsonb)
              with ordinality as t(a, n)
            order by n desc limit ${KEPT_ATTEMPTS}
          ) latest
        )`,
        attemptCount: sql`${webhookMessages.attemptCount} + 1`,
        nextAttemptAt: outcome.nextAttemptAt ?? sql`${webhookMessages.nextAttemptAt}`,
        updatedAt: sql`now()`,
      })
      .where(eq(webhookMessages.id, message.id));
    await tx
      .update(webhooks)
      .set({
        failingSince: outcome.ok ? null : sql`coalesce(${webhooks.failingSince}, now())`,
      })
      .where(eq(webhooks.id, message.webhookId));
  });
}

/** Disables webhooks failing since before `hours` ago; answers those disabled. */
export async function disableLongFailing(q: Queryable, hours: number): Promise<WebhookRow[]> {
  return q
    .update(webhooks)
    .set({
      enabled: false,
      disabledReason: sql`'every delivery failed since ' || to_char(${webhooks.failingSince} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(webhooks.enabled, true),
        sql`${webhooks.failingSince} < now() - make_interval(hours => ${hours})`,
      ),
    )
    .returning();
}

/** True when the webhook has a delivery with this id. */
export async function hasDelivery(q: Queryable, webhookId: string, id: string): Promise<boolean> {
  const [row] = await q
    .select({ id: webhookMessages.id })
    .from(webhookMessages)
    .where(and(eq(webhookMessages.webhookId, webhookId), eq(webhookMessages.id, id)));
  return row !== undefined;
}

/** A delivery as a page reads it: the message, with its event's id and type. */
export interface ListedDelivery {
  message: Shown<typeof webhookMessages.$inferSelect>;
  eventId: string;
  eventType: EventType;
}

/**
 * A page of a webhook's deliveries (`webhook_id`, the caller has checked that the key sees the
 * webhook), read as the resource lists are: oldest first, by page or by cursor (the index on
 * (webhook_id, created_at, id)).
 */
export const listDeliveries = listOf<typeof webhookMessages, ListedDelivery>(
  webhookMessages,
  () => undefined,
  { webhook_id: webhookMessages.webhookId, status: webhookMessages.status },
  {
    fields: { message: webhookMessages, eventId: events.id, eventType: events.type },
    join: (page) => page.innerJoin(events, eq(events.position, webhookMessages.eventPosition)),
  },
);

/**
 * Makes deliveries of the webhook pending and due now again: one (`deliveryId`), or those of
 * every event at or after `since`. Answers how many.
 */
export async function resendDeliveries(
  q: Queryable,
  webhookId: string,
  which: { deliveryId?: string; since?: Date },
): Promise<number> {
  const rows = await q
    .update(webhookMessages)
    .set({ status: "pending", nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(webhookMessages.webhookId, webhookId),
        // A pending delivery is already on its way (maybe being sent this moment): left alone,
        // so that no message is ever sent twice at once.
        ne(webhookMessages.status, "pending"),
        which.deliveryId ? eq(webhookMessages.id, which.deliveryId) : undefined,
        which.since
          ? sql`${webhookMessages.eventPosition} in (select position from events where ${gte(events.createdAt, which.since)})`
          : undefined,
      ),
    )
    .returning({ id: webhookMessages.id });
  return rows.length;
}
