/** /users: people of an organization who receive collectibles. */
import { type Endpoint, implement } from "../../http/endpoint.ts";
import {
  creating,
  deleting,
  JSON_BODY,
  listing,
  reading,
  resourceEndpoints,
  updating,
} from "../../http/resourceEndpoints.ts";
import { presentUser } from "../../presenters/resources.ts";
import {
  CreateUserBody,
  ListUsersQuery,
  UpdateUserBody,
  USER_READ_ONLY_ON_CREATE,
  USER_READ_ONLY_ON_UPDATE,
  User,
} from "../../schemas/users.ts";
import * as service from "../../services/users.ts";

const users = resourceEndpoints("User", "Users", User);

export const userEndpoints: readonly Endpoint[] = [
  implement(
    users.create({
      summary: "Create a user (with their own wallet address, or one derived by the service)",
      body: { ...JSON_BODY, schema: CreateUserBody, readOnly: USER_READ_ONLY_ON_CREATE },
      responses: users.created,
      errors: [404, 409],
    }),
    creating(service, presentUser),
  ),

  implement(users.remove("Deactivate a user", [404]), deleting(service.remove)),

  implement(users.get("Get a user"), reading(service.get, presentUser)),

  implement(
    users.list(ListUsersQuery, "List users visible to the key"),
    listing(service.list, presentUser),
  ),

  implement(
    users.update({
      summary: "Change a user's email, name or external_id",
      body: { ...JSON_BODY, schema: UpdateUserBody, readOnly: USER_READ_ONLY_ON_UPDATE },
      errors: [404, 409],
    }),
    updating(service.update, presentUser),
  ),
];
