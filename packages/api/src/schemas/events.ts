/** Events as the feed and webhooks deliver them. */
import { EVENT_TYPES } from "../db/eventSchema.ts";
import { decodeEventCursor } from "../lib/cursor.ts";
import { Claim } from "./claims.ts";
import { Collectible } from "./collectibles.ts";
import { cursorParam, DEFAULT_LIMIT, MAX_LIMIT, queryInt } from "./common.ts";
import { Timestamp, Uuid } from "./fields.ts";
import { z } from "./zod.ts";

export const EventType = z.enum(EVENT_TYPES).openapi("EventType");

export const Event = z
  .strictObject({
    id: Uuid.openapi({ description: "Also the webhook-id header: deliveries of it share it" }),
    type: EventType,
    timestamp: Timestamp.openapi({ description: "When the change happened" }),
    data: z.union([Collectible, Claim]).nullable().openapi({
      description:
        "The object as GET answered it just after the change (a Collectible for collectible.*, a Claim for claim.*); null if it was deleted before the event was first read",
    }),
  })
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
