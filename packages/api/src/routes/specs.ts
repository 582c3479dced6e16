/** Every endpoint declaration, in the order the OpenAPI document lists them. */
import type { EndpointSpec } from "../http/endpoint.ts";
import { buildOpenApiDocument } from "../http/openApiDocument.ts";
import * as apiKeys from "./apiKeys/apiKeys.routes.ts";
import * as claims from "./claims/claims.routes.ts";
import * as collectibles from "./collectibles/collectibles.routes.ts";
import * as events from "./events/events.routes.ts";
import * as operations from "./operations/operations.routes.ts";
import * as organizations from "./organizations/organizations.routes.ts";
import * as users from "./users/users.routes.ts";
import * as walletLink from "./users/walletLink.routes.ts";
import * as webhooks from "./webhooks/webhooks.routes.ts";

export const endpointSpecs: readonly EndpointSpec[] = [
  ...Object.values(operations),
  ...Object.values(organizations),
  ...Object.values(users),
  ...Object.values(walletLink),
  ...Object.values(collectibles),
  ...Object.values(claims),
  ...Object.values(apiKeys),
  ...Object.values(webhooks),
  ...Object.values(events),
];

let document: Record<string, unknown> | undefined;

/** The document of these endpoints, built on first use (it is the same for every app). */
export function openApiDocument(): Record<string, unknown> {
  document ??= buildOpenApiDocument(endpointSpecs) as unknown as Record<string, unknown>;
  return document;
}
