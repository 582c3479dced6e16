/**
 * Events as integrators read them: each one's `data` is the object as GET answers it, taken once
 * just after the change (by the webhook sender, or by the first feed read if that comes first)
 * and kept, so every reader and every delivery of one event carries the same object.
 */

import type { EventRow } from "../db/events.ts";
import { eventsAfter, setEventsData, unpresentedEvents } from "../db/events.ts";
import type { RouteDeps } from "../deps.ts";
import type { Scope } from "../domain/auth.ts";
import { encodeEventCursor } from "../schemas/common.ts";
import type { Event } from "../schemas/events.ts";
import type { z } from "../schemas/zod.ts";
import * as claims from "../services/claims/claims.ts";
import * as collectibles from "../services/collectibles.ts";
import * as users from "../services/users.ts";
import { presentClaim, presentCollectible, presentContext, presentUser } from "./resources.ts";

const EVERYTHING: Scope = { organizationId: null };

/**
 * The objects of these events as GET answers them now, by event position; null for one that is
 * gone. Each kind of object is read in one query: a burst confirms thousands of claims at once.
 */
async function currentObjects(deps: RouteDeps, rows: EventRow[]): Promise<Map<number, unknown>> {
  const ctx = presentContext(deps, deps.baseUrl());
  const idsOf = (kind: string) => [
    ...new Set(rows.filter((row) => kindOf(row) === kind).map((row) => row.objectId)),
  ];
  const claimViews = await claims.getMany(deps, EVERYTHING, idsOf("claim"));
  const userViews = await users.getMany(deps, EVERYTHING, idsOf("user"));
  const collectibleViews = await collectibles.getMany(deps, EVERYTHING, idsOf("collectible"));
  const objectOf = (row: EventRow): unknown => {
    const id = row.objectId;
    const kind = kindOf(row);
    if (kind === "claim") return mapped(claimViews.get(id), (view) => presentClaim(view, ctx));
    if (kind === "user") return mapped(userViews.get(id), (view) => presentUser(view, ctx));
    return mapped(collectibleViews.get(id), (view) => presentCollectible(view, ctx));
  };
  return new Map(rows.map((row) => [row.position, objectOf(row)]));
}

const kindOf = (row: EventRow) => row.type.slice(0, row.type.indexOf("."));

const mapped = <T>(view: T | undefined, present: (view: T) => unknown) =>
  view === undefined ? null : present(view);

/** Each event's data, given now to those that have none yet, by position. */
async function presented(deps: RouteDeps, rows: EventRow[]): Promise<Map<number, unknown>> {
  const unpresented = rows.filter((row) => row.data === null);
  const kept = await setEventsData(deps.db, await currentObjects(deps, unpresented));
  return new Map(rows.map((row) => [row.position, row.data ?? kept.get(row.position) ?? null]));
}

/** Presents the events that have no data yet, oldest first; answers how many. */
export async function presentNewEvents(deps: RouteDeps, limit = 100): Promise<number> {
  const rows = await unpresentedEvents(deps.db, limit);
  await presented(deps, rows);
  return rows.length;
}

/** The body of an event, as the feed lists it and a webhook delivers it. */
export function eventBody(
  event: Pick<EventRow, "id" | "type" | "createdAt">,
  data: unknown,
): z.input<typeof Event> {
  // `data` is what the presenter of the type's object answered (kept as JSON).
  return {
    id: event.id,
    type: event.type,
    timestamp: event.createdAt.toISOString(),
    data,
  } as z.input<typeof Event>;
}

/** The events after `after` (a position) that the scope sees, and where the next read starts. */
export async function readFeed(deps: RouteDeps, scope: Scope, after: number, limit: number) {
  const rows = await eventsAfter(deps.db, scope, after, limit);
  const dataAt = await presented(deps, rows);
  const data = rows.map((row) => eventBody(row, dataAt.get(row.position)));
  const last = rows.at(-1)?.position ?? after;
  return { data, next_cursor: encodeEventCursor(last) };
}
