/** /organizations: the business's customers, nested through parent_id. */
import { type BodySpec, type Endpoint, implement } from "../../http/endpoint.ts";
import {
  creating,
  deleting,
  listing,
  reading,
  resourceEndpoints,
  updating,
} from "../../http/resourceEndpoints.ts";
import { presentOrganization } from "../../presenters/resources.ts";
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
import * as service from "../../services/organizations.ts";

const organizations = resourceEndpoints("Organization", "Organizations", Organization);

/** JSON with two base64 images and room for the other fields, or multipart with files. */
const withImages = {
  contentTypes: ["application/json", "multipart/form-data"],
  maxBytes: (config) => Math.ceil((config.MAX_IMAGE_BYTES * 4) / 3) * 2 + 64 * 1024,
  files: ORGANIZATION_IMAGE_FIELDS,
  readOnly: ORGANIZATION_READ_ONLY,
} as const satisfies Omit<BodySpec, "schema">;

export const organizationEndpoints: readonly Endpoint[] = [
  implement(
    organizations.create({
      summary: "Create an organization (its wallet is derived by the service)",
      body: { ...withImages, schema: CreateOrganizationBody, formSchema: CreateOrganizationForm },
      responses: organizations.created,
      errors: [404, 409, 422],
    }),
    creating(service, presentOrganization),
  ),

  implement(
    organizations.remove(
      "Deactivate an organization (it must have no active sub-organizations or users)",
      [404, 409],
    ),
    deleting(service.remove),
  ),

  implement(organizations.get("Get an organization"), reading(service.get, presentOrganization)),

  implement(
    organizations.list(ListOrganizationsQuery, "List organizations visible to the key"),
    listing(service.list, presentOrganization),
  ),

  implement(
    organizations.update({
      summary: "Change some fields of an organization",
      body: { ...withImages, schema: UpdateOrganizationBody, formSchema: UpdateOrganizationForm },
      errors: [404, 409, 422],
    }),
    updating(service.update, presentOrganization),
  ),
];
