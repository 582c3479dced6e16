/** /api-keys: issue, list and revoke keys while the service runs (admin keys only). */
import { type Endpoint, implement } from "../../http/endpoint.ts";
import { JSON_BODY } from "../../http/resourceEndpoints.ts";
import { ApiKey, CreateApiKeyBody, CreatedApiKey } from "../../schemas/apiKeys.ts";
import { IdParams } from "../../schemas/common.ts";
import { z } from "../../schemas/zod.ts";
import { createKey, listKeys, requireAdmin, revokeKey } from "../../services/apiKeys.ts";

const tag = "API keys";
const base = { tag, auth: "apiKey" } as const;

export const apiKeyEndpoints: readonly Endpoint[] = [
  implement(
    {
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
    },
    async ({ auth, body }, deps) => {
      requireAdmin(auth);
      const input = {
        name: body.name,
        organizationId: body.organization_id ?? null,
        readOnly: body.read_only ?? false,
      };
      // It shows the key: no cache, shared or the client's, may keep it.
      return {
        status: 201,
        body: { data: await createKey(deps.db, input) },
        headers: { "Cache-Control": "no-store" },
      };
    },
  ),

  implement(
    {
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
    },
    async ({ auth }, deps) => {
      requireAdmin(auth);
      return { status: 200, body: { data: await listKeys(deps.db) } };
    },
  ),

  implement(
    {
      ...base,
      operationId: "revokeApiKey",
      method: "delete",
      path: "/api-keys/{id}",
      summary: "Revoke an API key: refused from the next request on, in every API process",
      params: IdParams,
      responses: { 200: { description: "Revoked", schema: z.strictObject({ data: ApiKey }) } },
      errors: [404],
    },
    async ({ auth, params }, deps) => {
      requireAdmin(auth);
      return { status: 200, body: { data: await revokeKey(deps.db, params.id) } };
    },
  ),
];
