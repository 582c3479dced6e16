/** Every endpoint with its handler: what the app mounts. */
import type { Endpoint } from "../http/endpoint.ts";
import { apiKeyEndpoints } from "./apiKeys/apiKeys.handlers.ts";
import { claimEndpoints } from "./claims/claims.handlers.ts";
import { collectibleEndpoints } from "./collectibles/collectibles.handlers.ts";
import { eventEndpoints } from "./events/events.handlers.ts";
import { operationEndpoints } from "./operations/operations.handlers.ts";
import { organizationEndpoints } from "./organizations/organizations.handlers.ts";
import { userEndpoints } from "./users/users.handlers.ts";
import { walletLinkEndpoints } from "./users/walletLink.handlers.ts";
import { webhookEndpoints } from "./webhooks/webhooks.handlers.ts";

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
