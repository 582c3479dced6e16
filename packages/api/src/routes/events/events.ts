/** /events: every event the key sees, in a stable order, to catch up without webhooks. */
import { type Endpoint, implement } from "../../http/endpoint.ts";
import { readFeed } from "../../presenters/events.ts";
import { EventFeed, EventsQuery } from "../../schemas/events.ts";

export const eventEndpoints: readonly Endpoint[] = [
  implement(
    {
      tag: "Events",
      auth: "apiKey",
      operationId: "listEvents",
      method: "get",
      path: "/events",
      summary: "Events after a cursor, oldest first: the same events webhooks deliver",
      description:
        "Keep next_cursor and pass it as ?after= next time: the order never changes and no event is skipped or repeated, also while events are being written.",
      query: EventsQuery,
      responses: { 200: { description: "The next events", schema: EventFeed } },
    },
    async ({ auth, query }, deps) => ({
      status: 200,
      body: await readFeed(deps, auth, query.after ?? 0, query.limit),
    }),
  ),
];
