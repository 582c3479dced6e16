/** /users handlers: validated input in, one service call, the presented answer out. */
import { implement } from "../../http/endpoint.ts";
import { presentUser } from "../../presenters/user.ts";
import * as users from "../../services/users.ts";
import { creating, deleting, listing, reading, updating } from "../resourceHandlers.ts";
import * as routes from "./users.routes.ts";

export const userEndpoints = [
  implement(routes.listUsers, listing(users.list, presentUser)),
  implement(routes.createUser, creating(users, presentUser)),
  implement(routes.getUser, reading(users.get, presentUser)),
  implement(routes.updateUser, updating(users.update, presentUser)),
  implement(routes.deleteUser, deleting(users.remove)),
];
