/** /organizations handlers: validated input in, one service call, the presented answer out. */
import { implement } from "../../http/endpoint.ts";
import { deletedReply, pageReply } from "../../http/replies.ts";
import { presentContext } from "../../presenters/context.ts";
import { presentOrganization } from "../../presenters/organization.ts";
import * as organizations from "../../services/organizations.ts";
import * as routes from "./organizations.routes.ts";

export const organizationEndpoints = [
  implement(routes.listOrganizations, async ({ query, auth, baseUrl }, deps) => {
    const ctx = presentContext(deps, baseUrl);
    const page = await organizations.list(deps, auth, query);
    return pageReply(query, page, (row) => presentOrganization(row, ctx));
  }),

  implement(routes.createOrganization, async ({ body, files, auth, baseUrl }, deps) => {
    const row = await organizations.create(deps, auth, body, files);
    const data = presentOrganization(row, presentContext(deps, baseUrl));
    return { status: 201, body: { data }, headers: { Location: `/organizations/${row.id}` } };
  }),

  implement(routes.getOrganization, async ({ params, auth, baseUrl }, deps) => {
    const row = await organizations.get(deps, auth, params.id);
    return { status: 200, body: { data: presentOrganization(row, presentContext(deps, baseUrl)) } };
  }),

  implement(routes.updateOrganization, async ({ params, body, files, auth, baseUrl }, deps) => {
    const row = await organizations.update(deps, auth, params.id, body, files);
    return { status: 200, body: { data: presentOrganization(row, presentContext(deps, baseUrl)) } };
  }),

  implement(routes.deleteOrganization, async ({ params, auth }, deps) => {
    await organizations.remove(deps, auth, params.id);
    return deletedReply(params.id);
  }),
];
