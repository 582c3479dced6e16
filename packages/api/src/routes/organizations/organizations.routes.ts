/** /organizations: the business's customers, nested through parent_id. */
import type { BodySpec } from "../../http/endpoint.ts";
import { defineEndpoint } from "../../http/endpoint.ts";
import { DeletedResponse, dataEnvelope, IdParams, listEnvelope } from "../../schemas/common.ts";
import {
  CreateOrganizationBody,
  CreateOrganizationForm,
  ListOrganizationsQuery,
  ORGANIZATION_IMAGE_FIELDS,
  ORGANIZATION_READ_ONLY,
  Organization,
  UpdateOrganizationBody,
  UpdateOrganizationForm,
} from "../../schemas/organizations.ts";

const tag = "Organizations";
const Envelope = dataEnvelope(Organization);

/** JSON with two base64 images and room for the other fields, or multipart with files. */
const withImages = {
  contentTypes: ["application/json", "multipart/form-data"],
  maxBytes: (config) => Math.ceil((config.MAX_IMAGE_BYTES * 4) / 3) * 2 + 64 * 1024,
  files: ORGANIZATION_IMAGE_FIELDS,
  readOnly: ORGANIZATION_READ_ONLY,
} satisfies Omit<BodySpec, "schema">;

export const listOrganizations = defineEndpoint({
  operationId: "listOrganizations",
  method: "get",
  path: "/organizations",
  tag,
  summary: "List organizations visible to the key",
  auth: "apiKey",
  query: ListOrganizationsQuery,
  responses: {
    200: {
      description: "A page of organizations, oldest first",
      schema: listEnvelope(Organization),
    },
  },
});

export const createOrganization = defineEndpoint({
  operationId: "createOrganization",
  method: "post",
  path: "/organizations",
  tag,
  summary: "Create an organization (its wallet is derived by the service)",
  auth: "apiKey",
  body: { ...withImages, schema: CreateOrganizationBody, formSchema: CreateOrganizationForm },
  idempotent: true,
  responses: { 201: { description: "Created", schema: Envelope, headers: ["Location"] } },
  errors: [404, 409, 422],
});

export const getOrganization = defineEndpoint({
  operationId: "getOrganization",
  method: "get",
  path: "/organizations/{id}",
  tag,
  summary: "Get an organization",
  auth: "apiKey",
  params: IdParams,
  responses: { 200: { description: "Found", schema: Envelope } },
  errors: [404],
});

export const updateOrganization = defineEndpoint({
  operationId: "updateOrganization",
  method: "patch",
  path: "/organizations/{id}",
  tag,
  summary: "Change some fields of an organization",
  auth: "apiKey",
  params: IdParams,
  body: { ...withImages, schema: UpdateOrganizationBody, formSchema: UpdateOrganizationForm },
  responses: { 200: { description: "Updated", schema: Envelope } },
  errors: [404, 409, 422],
});

export const deleteOrganization = defineEndpoint({
  operationId: "deleteOrganization",
  method: "delete",
  path: "/organizations/{id}",
  tag,
  summary: "Deactivate an organization (it must have no active sub-organizations or users)",
  auth: "apiKey",
  params: IdParams,
  responses: { 200: { description: "Deactivated", schema: DeletedResponse } },
  errors: [404, 409],
});
