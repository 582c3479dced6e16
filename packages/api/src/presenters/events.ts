/**
 * Events as integrators read them: each one's `data` is the object as GET answers it, taken once
 * just after the change (by the webhook sender, or by the first feed read if that comes first)
 * and kept, so every reader and every delivery of one event carries the same object.
 */

import type { EventRow } from "../db/events.ts";
import { eventsAfter, setEventData, unpresentedEvents } from "../db/events.ts";
import type { RouteDeps } from "../deps.ts";
import type { Scope } from "../domain/auth.ts";
import { NotFoundError } from "../errors.ts";
import { encodeEventCursor } from "../schemas/common.ts";
import type { Event } from "../schemas/events.ts";
import type { z } from "../schemas/zod.ts";
import * as claims from "../services/claims/claims.ts";
import * as collectibles from "../services/collectibles.ts";
import * as users from "../services/users.ts";
import { presentClaim, presentCollectible, presentContext, presentUser } from "./resources.ts";

const EVERYTHING: Scope = { organizationId: null };

/** The event's object as GET answers it now; null when it is gone. */
async function currentObject(deps: RouteDeps, event: EventRow): Promise<unknown> {
  const ctx = presentContext(deps, deps.baseUrl());
  try {
    if (event.type.startsWith("claim.")) {
      return presentClaim(await claims.get(deps, EVERYTHING, event.objectId), ctx);
    }
    if (event.type.startsWith("user.")) {
      return presentUser(await users.get(deps, EVERYTHING, event.objectId), ctx);
    }
    return presentCollectible(await collectibles.get(deps, EVERYTHING, event.objectId), ctx);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** Gives `data` to the event if it has none yet; answers the data kept. */
async function presented(deps: RouteDeps, event: EventRow): Promise<unknown> {
  if (event.data !== null) return event.data;
  const data = await currentObject(deps, event);
  return setEventData(deps.db, event.position, data);
}

/** Presents the events that have no data yet, oldest first; answers how many. */
export async function presentNewEvents(deps: RouteDeps, limit = 100): Promise<number> {
  const rows = await unpresentedEvents(deps.db, limit);
  for (const row of rows) await presented(deps, row);
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
  const data = [];
  for (const row of rows) data.push(eventBody(row, await presented(deps, row)));
  const last = rows.at(-1)?.position ?? after;
  return { data, next_cursor: encodeEventCursor(last) };
}
