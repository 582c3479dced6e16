/** /claims handlers: validated input in, one service call, the presented answer out. */
import { implement } from "../../http/endpoint.ts";
import { presentClaim } from "../../presenters/claim.ts";
import { presentContext } from "../../presenters/context.ts";
import { createBatch } from "../../services/claimBatch.ts";
import * as claims from "../../services/claims.ts";
import { creating, listing, reading } from "../resourceHandlers.ts";
import * as routes from "./claims.routes.ts";

export const claimEndpoints = [
  implement(routes.listClaims, listing(claims.list, presentClaim)),
  implement(routes.createClaim, creating(claims, presentClaim)),
  implement(routes.getClaim, reading(claims.get, presentClaim)),
  implement(routes.createClaimBatch, async ({ body, auth, baseUrl, idempotency }, deps) => {
    const ctx = presentContext(deps, baseUrl);
    const present = (view: Parameters<typeof presentClaim>[0]) => presentClaim(view, ctx);
    const answer = await createBatch(deps, auth, body.items, present, idempotency);
    return { status: 200, body: answer };
  }),
];
