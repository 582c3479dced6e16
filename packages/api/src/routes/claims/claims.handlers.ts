/** /claims handlers: validated input in, one service call, the presented answer out. */
import { implement } from "../../http/endpoint.ts";
import { presentClaim } from "../../presenters/claim.ts";
import * as claims from "../../services/claims.ts";
import { creating, listing, reading } from "../resourceHandlers.ts";
import * as routes from "./claims.routes.ts";

export const claimEndpoints = [
  implement(routes.listClaims, listing(claims.list, presentClaim)),
  implement(routes.createClaim, creating(claims, presentClaim, "/claims", true)),
  implement(routes.getClaim, reading(claims.get, presentClaim)),
];
