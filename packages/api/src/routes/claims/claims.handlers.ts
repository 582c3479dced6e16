/** /claims handlers: validated input in, one service call, the presented answer out. */
import { implement } from "../../http/endpoint.ts";
import { pageReply } from "../../http/replies.ts";
import { presentClaim } from "../../presenters/claim.ts";
import { presentContext } from "../../presenters/context.ts";
import * as claims from "../../services/claims.ts";
import * as routes from "./claims.routes.ts";

export const claimEndpoints = [
  implement(routes.listClaims, async ({ query, auth, baseUrl }, deps) => {
    const ctx = presentContext(deps, baseUrl);
    return pageReply(query, await claims.list(deps, auth, query), (view) =>
      presentClaim(view, ctx),
    );
  }),

  implement(routes.createClaim, async ({ body, auth, baseUrl }, deps) => {
    const view = await claims.create(deps, auth, body);
    return {
      status: view.claim.status === "pending" ? 202 : 201,
      body: { data: presentClaim(view, presentContext(deps, baseUrl)) },
      headers: { Location: `/claims/${view.claim.id}` },
    };
  }),

  implement(routes.getClaim, async ({ params, auth, baseUrl }, deps) => {
    const view = await claims.get(deps, auth, params.id);
    return { status: 200, body: { data: presentClaim(view, presentContext(deps, baseUrl)) } };
  }),
];
