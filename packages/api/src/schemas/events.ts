/** Events as the feed and webhooks deliver them. */
import { EVENT_TYPES } from "../domain/events.ts";
import { Claim } from "./claims.ts";
import { Collectible } from "./collectibles.ts";
import { cursorParam, DEFAULT_LIMIT, decodeEventCursor, MAX_LIMIT, queryInt } from "./common.ts";
import { Timestamp, Uuid } from "./fields.ts";
import { User } from "./users.ts";
import { z } from "./zod.ts";

export const EventType = z.enum(EVENT_TYPES).openapi("EventType");

type EventTypeName = (typeof EVENT_TYPES)[number];

/** Every event type about one kind of object (`claim.confirmed`, `claim.reorged`, …). */
function typesAbout<Kind extends string>(kind: Kind) {
  type About = Extract<EventTypeName, `${Kind}.${string}`>;
  const types = EVENT_TYPES.filter((type): type is About => type.startsWith(`${kind}.`));
  return types as [About, ...About[]];
}

/** An event about one kind of object: its types, and that object as `data`. */
const eventAbout = <T extends z.ZodType>(
  types: readonly [EventTypeName, ...EventTypeName[]],
  object: T,
  name: string,
) =>
  z
    .strictObject({
      id: Uuid.openapi({ description: "Also the webhook-id header: deliveries of it share it" }),
      type: z.enum(types),
      timestamp: Timestamp.openapi({ description: "When the change happened" }),
      // A union with null, not .nullable(): that documents an allOf no null satisfies.
      data: z.union([object, z.null()]).openapi({
        description: `The ${name} as GET answered it just after the change; null if it was deleted before the event was first read`,
      }),
    })
    .openapi(`${name}Event`);

export const CollectibleEvent = eventAbout(typesAbout("collectible"), Collectible, "Collectible");
export const ClaimEvent = eventAbout(typesAbout("claim"), Claim, "Claim");
export const UserEvent = eventAbout(typesAbout("user"), User, "User");

/** One union member per kind of object, told apart by `type`: a check of it narrows `data`. */
export const Event = z
  .discriminatedUnion("type", [CollectibleEvent, ClaimEvent, UserEvent])
  .openapi("Event");

const After = cursorParam("after", decodeEventCursor, {
  from: "next_cursor",
  description: "The next_cursor of the last answer; absent: from the first event",
});

export const EventsQuery = z.strictObject({
  after: After,
  // The same default as every list: 20.
  limit: queryInt("limit", 1, MAX_LIMIT, DEFAULT_LIMIT),
});

export const EventFeed = z
  .strictObject({
    data: z.array(Event),
    next_cursor: z.string().openapi({
      description:
        "Where the next call starts (?after=): after the last event here, or where this call started when there was none. Keep it to resume after downtime",
    }),
  })
  .openapi("EventFeed");
