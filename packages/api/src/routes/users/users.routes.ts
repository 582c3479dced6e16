/** /users: people of an organization who receive collectibles. */
import { JSON_BODY, resourceEndpoints } from "../../http/resourceEndpoints.ts";
import {
  CreateUserBody,
  ListUsersQuery,
  UpdateUserBody,
  USER_READ_ONLY_ON_CREATE,
  USER_READ_ONLY_ON_UPDATE,
  User,
} from "../../schemas/users.ts";

const users = resourceEndpoints("User", "Users", User);

export const listUsers = users.list(ListUsersQuery, "List users visible to the key");

export const createUser = users.create({
  summary: "Create a user (with their own wallet address, or one derived by the service)",
  body: { ...JSON_BODY, schema: CreateUserBody, readOnly: USER_READ_ONLY_ON_CREATE },
  responses: users.created,
  errors: [404, 409],
});

export const getUser = users.get("Get a user");

export const updateUser = users.update({
  summary: "Change a user's email, name or external_id",
  body: { ...JSON_BODY, schema: UpdateUserBody, readOnly: USER_READ_ONLY_ON_UPDATE },
  errors: [404, 409],
});

export const deleteUser = users.remove("Deactivate a user", [404]);
