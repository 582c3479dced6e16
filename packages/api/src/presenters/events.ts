/**
 * Events as integrators read them: each one's `data` is the object as GET answers it, taken once
 * just after the change (by the webhook sender, or by the first feed read if that comes first)
 * and kept, so every reader and every delivery of one event carries the same object.
 */

import type { EventRow, ReadEvent } from "../db/events.ts";
import { eventsAfter, setEventsData, unpresentedEvents } from "../db/events.ts";
import type { RouteDeps } from "../deps.ts";
import type { Scope } from "../domain/auth.ts";
import { NotFoundError } from "../errors.ts";
import { encodeEventCursor } from "../schemas/common.ts";
import type { Event } from "../schemas/events.ts";
import type { z } from "../schemas/zod.ts";
import * as claims from "../services/claims/claims.ts";
import * as collectibles from "../services/collectibles.ts";
import * as users from "../services/users.ts";
import {
  type PresentContext,
  presentClaim,
  presentCollectible,
  presentContext,
  presentUser,
} from "./resources.ts";

const EVERYTHING: Scope = { organizationId: null };

/**
 * The objects of these events as GET answers them now, by event position; null for one that is
 * gone. Claims are read in one query: a burst confirms thousands at once. Users and collectibles
 * change one at a time, and are read so.
 */
async function currentObjects(deps: RouteDeps, rows: EventRow[]): Promise<Map<number, unknown>> {
  const ctx = presentContext(deps, deps.baseUrl());
  const isClaim = (row: EventRow) => row.type.startsWith("claim.");
  const claimIds = [...new Set(rows.filter(isClaim).map((row) => row.objectId))];
  const claimViews = await claims.getMany(deps, EVERYTHING, claimIds);
  const objects = new Map<number, unknown>();
  for (const row of rows) {
    if (isClaim(row)) {
      const view = claimViews.get(row.objectId);
      objects.set(row.position, view ? presentClaim(view, ctx) : null);
    } else {
      objects.set(row.position, await currentObject(deps, row, ctx));
    }
  }
  return objects;
}

/** A user's or a collectible's event's object as GET answers it now; null when it is gone. */
async function currentObject(
  deps: RouteDeps,
  event: EventRow,
  ctx: PresentContext,
): Promise<unknown> {
  try {
    if (event.type.startsWith("user.")) {
      return presentUser(await users.get(deps, EVERYTHING, event.objectId), ctx);
    }
    return presentCollectible(await collectibles.get(deps, EVERYTHING, event.objectId), ctx);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** Each event's data, given now to those that have none yet, by position. */
async function presented(deps: RouteDeps, rows: ReadEvent[]): Promise<Map<number, unknown>> {
  const unpresented = rows.filter((row) => !row.presented);
  const kept = await setEventsData(deps.db, await currentObjects(deps, unpresented));
  return new Map(
    rows.map((row) => [row.position, row.presented ? row.data : (kept.get(row.position) ?? null)]),
  );
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
