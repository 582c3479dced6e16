/** /api-keys handlers: validated input in, one service call, the key out. */
import { implement } from "../../http/endpoint.ts";
import { createKey, listKeys, requireAdmin, revokeKey } from "../../services/apiKeys.ts";
import * as routes from "./apiKeys.routes.ts";

export const apiKeyEndpoints = [
  implement(routes.listApiKeys, async ({ auth }, deps) => {
    requireAdmin(auth);
    return { status: 200, body: { data: await listKeys(deps.db) } };
  }),
  implement(routes.createApiKey, async ({ auth, body }, deps) => {
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
  }),
  implement(routes.revokeApiKey, async ({ auth, params }, deps) => {
    requireAdmin(auth);
    return { status: 200, body: { data: await revokeKey(deps.db, params.id) } };
  }),
];
