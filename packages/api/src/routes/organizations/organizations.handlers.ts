/** /organizations handlers: validated input in, one service call, the presented answer out. */
import { implement } from "../../http/endpoint.ts";
import { presentOrganization } from "../../presenters/organization.ts";
import * as organizations from "../../services/organizations.ts";
import { creating, deleting, listing, reading, updating } from "../resourceHandlers.ts";
import * as routes from "./organizations.routes.ts";

export const organizationEndpoints = [
  implement(routes.listOrganizations, listing(organizations.list, presentOrganization)),
  implement(routes.createOrganization, creating(organizations, presentOrganization)),
  implement(routes.getOrganization, reading(organizations.get, presentOrganization)),
  implement(routes.updateOrganization, updating(organizations.update, presentOrganization)),
  implement(routes.deleteOrganization, deleting(organizations.remove)),
];
