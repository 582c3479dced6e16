/**
 * Every endpoint, each its declaration with its handler: what the app mounts, and in this order
 * what the OpenAPI document lists. A resource's module lists its endpoints by operation id, A to
 * Z: the order the document has had since it was built from the modules' exports.
 */
import type { Endpoint } from "../http/endpoint.ts";
import { buildOpenApiDocument } from "../http/openApiDocument.ts";
import { apiKeyEndpoints } from "./apiKeys/apiKeys.ts";
import { claimEndpoints } from "./claims/claims.ts";
import { collectibleEndpoints } from "./collectibles/collectibles.ts";
import { eventEndpoints } from "./events/events.ts";
import { operationEndpoints } from "./operations/operations.ts";
import { organizationEndpoints } from "./organizations/organizations.ts";
import { userEndpoints } from "./users/users.ts";
import { walletLinkEndpoints } from "./users/walletLink.ts";
import { webhookEndpoints } from "./webhooks/webhooks.ts";

export const endpoints: readonly Endpoint[] = [
  ...operationEndpoints,
  ...organizationEndpoints,
  ...userEndpoints,
  ...walletLinkEndpoints,
  ...collectibleEndpoints,
  ...claimEndpoints,
  ...apiKeyEndpoints,
  ...webhookEndpoints,
  ...eventEndpoints,
];

let document: Record<string, unknown> | undefined;

/** The document of these endpoints, built on first use (it is the same for every app). */
export function openApiDocument(): Record<string, unknown> {
  document ??= buildOpenApiDocument(
    endpoints.map((endpoint) => endpoint.spec),
  ) as unknown as Record<string, unknown>;
  return document;
}
