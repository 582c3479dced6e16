/** /api-keys: issue, list and revoke keys while the service runs (admin keys only). */
import { defineEndpoint } from "../../http/endpoint.ts";
import { JSON_BODY } from "../../http/resourceEndpoints.ts";
import { ApiKey, CreateApiKeyBody, CreatedApiKey } from "../../schemas/apiKeys.ts";
import { IdParams } from "../../schemas/common.ts";
import { z } from "../../schemas/zod.ts";

const tag = "API keys";
const base = { tag, auth: "apiKey" } as const;

export const listApiKeys = defineEndpoint({
  ...base,
  operationId: "listApiKeys",
  method: "get",
  path: "/api-keys",
  summary: "List API keys (never their secrets); admin keys only",
  responses: {
    200: {
      description: "Every key, revoked ones too",
      schema: z.strictObject({ data: z.array(ApiKey) }),
    },
  },
  errors: [403],
});

export const createApiKey = defineEndpoint({
  ...base,
  operationId: "createApiKey",
  method: "post",
  path: "/api-keys",
  summary:
    "Issue an API key, for an organization's subtree and read-only if asked; admin keys only",
  description: "The answer is the only time the key exists in clear: keep it.",
  body: { ...JSON_BODY, schema: CreateApiKeyBody },
  responses: {
    201: {
      description: "Issued",
      schema: z.strictObject({ data: CreatedApiKey }),
      // It carries the key: no cache may keep it.
      headers: ["Cache-Control"],
    },
  },
  errors: [404],
});

export const revokeApiKey = defineEndpoint({
  ...base,
  operationId: "revokeApiKey",
  method: "delete",
  path: "/api-keys/{id}",
  summary: "Revoke an API key: refused from the next request on, in every API process",
  params: IdParams,
  responses: { 200: { description: "Revoked", schema: z.strictObject({ data: ApiKey }) } },
  errors: [404],
});
