/** /users handlers: validated input in, one service call, the presented answer out. */
import { implement } from "../../http/endpoint.ts";
import { deletedReply, pageReply } from "../../http/replies.ts";
import { presentContext } from "../../presenters/context.ts";
import { presentUser } from "../../presenters/user.ts";
import * as users from "../../services/users.ts";
import * as routes from "./users.routes.ts";

export const userEndpoints = [
  implement(routes.listUsers, async ({ query, auth, baseUrl }, deps) => {
    const ctx = presentContext(deps, baseUrl);
    return pageReply(query, await users.list(deps, auth, query), (view) => presentUser(view, ctx));
  }),

  implement(routes.createUser, async ({ body, auth, baseUrl }, deps) => {
    const view = await users.create(deps, auth, body);
    const data = presentUser(view, presentContext(deps, baseUrl));
    return { status: 201, body: { data }, headers: { Location: `/users/${view.row.id}` } };
  }),

  implement(routes.getUser, async ({ params, auth, baseUrl }, deps) => {
    const view = await users.get(deps, auth, params.id);
    return { status: 200, body: { data: presentUser(view, presentContext(deps, baseUrl)) } };
  }),

  implement(routes.updateUser, async ({ params, body, auth, baseUrl }, deps) => {
    const view = await users.update(deps, auth, params.id, body);
    return { status: 200, body: { data: presentUser(view, presentContext(deps, baseUrl)) } };
  }),

  implement(routes.deleteUser, async ({ params, auth }, deps) => {
    await users.remove(deps, auth, params.id);
    return deletedReply(params.id);
  }),
];
