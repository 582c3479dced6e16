/** API keys as answered (never the secret, but once) and as accepted. */
import { Name, Timestamp, Uuid } from "./fields.ts";
import { z } from "./zod.ts";

export const ApiKey = z
  .strictObject({
    id: Uuid,
    name: z.string(),
    prefix: z.string().openapi({ description: "The key's first characters, to recognise it" }),
    organization_id: Uuid.nullable().openapi({
      description: "The organization whose subtree the key sees; null: an admin key (all)",
    }),
    read_only: z.boolean().openapi({ description: "Only GET: every write answers 403" }),
    created_at: Timestamp,
    last_used_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
  })
  .openapi("ApiKey");

export const CreatedApiKey = ApiKey.extend({
  key: z.string().openapi({
    description: "The key itself: shown only in this answer (only its hash is stored)",
    example: "ck_live_...",
  }),
}).openapi("CreatedApiKey");

export const CreateApiKeyBody = z
  .strictObject({
    name: Name,
    organization_id: Uuid.nullish().openapi({
      description: "Limit the key to this organization and its descendants; absent: admin key",
    }),
    read_only: z.boolean().optional().openapi({ description: "Only GET (default false)" }),
  })
  .openapi("CreateApiKey");
