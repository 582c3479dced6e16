/**
 * @collectibles/client: a typed client of the Collectibles API. The types come from the API's
 * OpenAPI document (`pnpm generate`); calls go through openapi-fetch.
 */
export {
  CollectiblesApiError,
  type ErrorBody,
  type ErrorDetail,
  type FetchResult,
  unwrap,
} from "./CollectiblesApiError.ts";
export {
  basicAuthorization,
  type CollectiblesClient,
  type CollectiblesClientOptions,
  createCollectiblesClient,
} from "./createCollectiblesClient.ts";
export {
  type ListItem,
  type ListPage,
  type ListPath,
  type ListQuery,
  listAll,
  paginate,
} from "./paginate.ts";
export type { components, operations, paths } from "./schema.ts";
export {
  verifyWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookDelivery,
  type WebhookEvent,
  WebhookVerificationError,
} from "./verifyWebhook.ts";
