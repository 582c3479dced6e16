/** /events handler: validated input in, one service call, the feed out. */
import { implement } from "../../http/endpoint.ts";
import { readFeed } from "../../presenters/events.ts";
import * as routes from "./events.routes.ts";

export const eventEndpoints = [
  implement(routes.listEvents, async ({ auth, query }, deps) => ({
    status: 200,
    body: await readFeed(deps, auth, query.after ?? 0, query.limit),
  })),
];
