/** /collectibles handlers: validated input in, one service call, the presented answer out. */
import { implement } from "../../http/endpoint.ts";
import { pageReply } from "../../http/replies.ts";
import { presentCollectible } from "../../presenters/collectible.ts";
import { presentContext } from "../../presenters/context.ts";
import * as collectibles from "../../services/collectibles.ts";
import * as routes from "./collectibles.routes.ts";

export const collectibleEndpoints = [
  implement(routes.listCollectibles, async ({ query, auth, baseUrl }, deps) => {
    const ctx = presentContext(deps, baseUrl);
    const page = await collectibles.list(deps, auth, query);
    return pageReply(query, page, (view) => presentCollectible(view, ctx));
  }),

  implement(routes.createCollectible, async ({ body, files, auth, baseUrl }, deps) => {
    const view = await collectibles.create(deps, auth, body, files);
    return {
      status: view.row.status === "pending" ? 202 : 201,
      body: { data: presentCollectible(view, presentContext(deps, baseUrl)) },
      headers: { Location: `/collectibles/${view.row.id}` },
    };
  }),

  implement(routes.getCollectible, async ({ params, auth, baseUrl }, deps) => {
    const view = await collectibles.get(deps, auth, params.id);
    return { status: 200, body: { data: presentCollectible(view, presentContext(deps, baseUrl)) } };
  }),
];
