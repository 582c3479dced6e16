/** /users: people of an organization who receive collectibles. */
import { defineEndpoint } from "../../http/endpoint.ts";
import { DeletedResponse, dataEnvelope, IdParams, listEnvelope } from "../../schemas/common.ts";
import {
  CreateUserBody,
  ListUsersQuery,
  UpdateUserBody,
  USER_READ_ONLY_ON_CREATE,
  USER_READ_ONLY_ON_UPDATE,
  User,
} from "../../schemas/users.ts";

const tag = "Users";
const Envelope = dataEnvelope(User);
const json = {
  contentTypes: ["application/json"],
  maxBytes: (config: { MAX_JSON_BYTES: number }) => config.MAX_JSON_BYTES,
} as const;

export const listUsers = defineEndpoint({
  operationId: "listUsers",
  method: "get",
  path: "/users",
  tag,
  summary: "List users visible to the key",
  auth: "apiKey",
  query: ListUsersQuery,
  responses: { 200: { description: "A page of users, oldest first", schema: listEnvelope(User) } },
});

export const createUser = defineEndpoint({
  operationId: "createUser",
  method: "post",
  path: "/users",
  tag,
  summary: "Create a user (with their own wallet address, or one derived by the service)",
  auth: "apiKey",
  body: { ...json, schema: CreateUserBody, readOnly: USER_READ_ONLY_ON_CREATE },
  idempotent: true,
  responses: { 201: { description: "Created", schema: Envelope, headers: ["Location"] } },
  errors: [404, 409],
});

export const getUser = defineEndpoint({
  operationId: "getUser",
  method: "get",
  path: "/users/{id}",
  tag,
  summary: "Get a user",
  auth: "apiKey",
  params: IdParams,
  responses: { 200: { description: "Found", schema: Envelope } },
  errors: [404],
});

export const updateUser = defineEndpoint({
  operationId: "updateUser",
  method: "patch",
  path: "/users/{id}",
  tag,
  summary: "Change a user's email, name or external_id",
  auth: "apiKey",
  params: IdParams,
  body: { ...json, schema: UpdateUserBody, readOnly: USER_READ_ONLY_ON_UPDATE },
  responses: { 200: { description: "Updated", schema: Envelope } },
  errors: [404, 409],
});

export const deleteUser = defineEndpoint({
  operationId: "deleteUser",
  method: "delete",
  path: "/users/{id}",
  tag,
  summary: "Deactivate a user",
  auth: "apiKey",
  params: IdParams,
  responses: { 200: { description: "Deactivated", schema: DeletedResponse } },
  errors: [404],
});
