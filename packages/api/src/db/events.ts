/**
 * Events: written in the transaction of the change they report, each with a message for every
 * webhook that wants it (see eventSchema.ts), and read back in position order by the feed.
 */

import { and, asc, eq, getTableColumns, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Scope } from "../domain/auth.ts";
import type { EventType } from "../domain/events.ts";
import { type Queryable, rowsOf } from "./driver/client.ts";
import { eventPosition, events } from "./eventSchema.ts";
import { claims, collectibles } from "./schema.ts";
import { scopeCondition } from "./scope.ts";

export type EventRow = typeof events.$inferSelect;

/**
 * An event as the feed and the webhook sender read it: whether its data was kept is said by SQL,
 * since an object kept as JSON `null` (it was gone) reads back as `null` too.
 */
export type ReadEvent = EventRow & { presented: boolean };

const readEvent = {
  ...getTableColumns(events),
  presented: sql<boolean>`${events.data} is not null`,
};

/** An object an event is about, with the organization whose keys and webhooks see it. */
export interface EventObject {
  id: string;
  organizationId: string;
}

/**
 * Records one event of `type` per object, in the caller's transaction, and queues a message for
 * every enabled webhook that wants the type and whose organization is the object's or an
 * ancestor of it (an admin's webhook, without organization, gets every event).
 */
export async function recordEvents(
  tx: Queryable,
  type: EventType,
  objects: readonly EventObject[],
): Promise<void> {
  if (objects.length === 0) return;
  // Holding this row's lock to the commit is what orders positions by commit.
  const [taken] = await tx
    .update(eventPosition)
    .set({ last: sql`${eventPosition.last} + ${objects.length}` })
    .where(eq(eventPosition.id, 1))
    .returning({ last: eventPosition.last });
  if (!taken) throw new Error("the event_position row is missing");
  const first = taken.last - objects.length + 1;
  // One array per column, as a claim group's rows travel: drizzle built a `values` list of 400
  // events in some 16 ms, holding the event loop, where these arrays take well under one.
  const organizationIds = sql.param(objects.map((object) => object.organizationId));
  const objectIds = sql.param(objects.map((object) => object.id));
  await tx.execute(sql`
    insert into ${events} (position, type, organization_id, object_id)
    select ${first}::bigint + given.n - 1, ${type}, given.organization_id, given.object_id
    from unnest(${organizationIds}::uuid[], ${objectIds}::uuid[])
      with ordinality as given(organization_id, object_id, n)`);
  await tx.execute(sql`
    with recursive lineage(position, organization_id) as (
      select position, organization_id from events where position between ${first} and ${taken.last}
      union
      select lineage.position, organizations.parent_id
      from lineage join organizations on organizations.id = lineage.organization_id
      where organizations.parent_id is not null
    )
    insert into webhook_messages (webhook_id, event_position, object_id)
    select webhooks.id, events.position, events.object_id
    from lineage
    join events on events.position = lineage.position
    join webhooks on webhooks.organization_id = lineage.organization_id
      or (webhooks.organization_id is null and lineage.organization_id = events.organization_id)
    where webhooks.enabled and webhooks.deleted_at is null and ${type} = any(webhooks.event_types)`);
}

/** Events about claims: the organization is the claimed collectible's. */
export async function claimEventObjects(
  tx: Queryable,
  claimIds: readonly string[],
): Promise<EventObject[]> {
  if (claimIds.length === 0) return [];
  return tx
    .select({ id: claims.id, organizationId: collectibles.organizationId })
    .from(claims)
    .innerJoin(collectibles, eq(collectibles.id, claims.collectibleId))
    .where(sql`${claims.id} = any(${sql.param([...claimIds])}::uuid[])`)
    .orderBy(asc(claims.createdAt), asc(claims.id));
}

/** Events not presented yet, oldest first. */
export function unpresentedEvents(q: Queryable, limit: number): Promise<ReadEvent[]> {
  return q
    .select(readEvent)
    .from(events)
    .where(isNull(events.data))
    .orderBy(asc(events.position))
    .limit(limit);
}

/**
 * Keeps what each event's object looked like, by event position; where another reader presented
 * an event first, its presentation stays. Answers the data kept, by position. The rows are locked
 * in position order, so two readers presenting overlapping events cannot deadlock.
 */
export async function setEventsData(
  q: Queryable,
  dataAt: Map<number, unknown>,
): Promise<Map<number, unknown>> {
  if (dataAt.size === 0) return new Map();
  const positions = sql.param([...dataAt.keys()]);
  const data = sql.param([...dataAt.values()].map((value) => JSON.stringify(value ?? null)));
  const set = await q.execute(sql`
    with given as (
      select * from unnest(${positions}::bigint[], ${data}::jsonb[]) as given(position, data)
    ), unpresented as (
      select ${events.position} as position from ${events}
      where ${events.position} = any(${positions}::bigint[]) and ${events.data} is null
      order by ${events.position}
      for update
    )
    update ${events} set data = given.data
    from given join unpresented on unpresented.position = given.position
    where ${events.position} = given.position
    returning ${events.position} as position, ${events.data} as data`);
  const kept = new Map<number, unknown>(
    rowsOf<{ position: string | number; data: unknown }>(set).map((row) => [
      Number(row.position),
      row.data,
    ]),
  );
  const presentedBefore = [...dataAt.keys()].filter((position) => !kept.has(position));
  for (const [position, row] of await eventsAt(q, presentedBefore)) kept.set(position, row.data);
  return kept;
}

/** The events after `position` the scope sees, in position order. */
export function eventsAfter(
  q: Queryable,
  scope: Scope,
  position: number,
  limit: number,
): Promise<ReadEvent[]> {
  return q
    .select(readEvent)
    .from(events)
    .where(and(gt(events.position, position), scopeCondition(scope, events.organizationId)))
    .orderBy(asc(events.position))
    .limit(limit);
}

/** The events at `positions`, by position. */
export async function eventsAt(
  q: Queryable,
  positions: readonly number[],
): Promise<Map<number, EventRow>> {
  if (positions.length === 0) return new Map();
  const rows = await q
    .select()
    .from(events)
    .where(inArray(events.position, [...positions]));
  return new Map(rows.map((row) => [row.position, row]));
}
