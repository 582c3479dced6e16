/** /collectibles handlers: validated input in, one service call, the presented answer out. */
import { implement } from "../../http/endpoint.ts";
import { presentCollectible } from "../../presenters/collectible.ts";
import * as collectibles from "../../services/collectibles.ts";
import { creating, listing, reading } from "../resourceHandlers.ts";
import * as routes from "./collectibles.routes.ts";

export const collectibleEndpoints = [
  implement(routes.listCollectibles, listing(collectibles.list, presentCollectible)),
  implement(routes.createCollectible, creating(collectibles, presentCollectible)),
  implement(routes.getCollectible, reading(collectibles.get, presentCollectible)),
];
