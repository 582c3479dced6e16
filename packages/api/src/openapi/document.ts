/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { registerClaimsOpenApi } from "../routes/claims.ts";
import { registerCollectiblesOpenApi } from "../routes/collectibles.ts";
import { registerHealthOpenApi } from "../routes/health.ts";
import { registerImagesOpenApi } from "../routes/images.ts";
import { registerOrganizationsOpenApi } from "../routes/organizations.ts";
import { registerUsersOpenApi } from "../routes/users.ts";

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

export function buildOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "basicAuth", {
    type: "http",
    scheme: "basic",
    description: "The API key is the username; the password is empty (curl -u KEY: ...)",
  });
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "Authorization: Bearer KEY",
  });
  registerHealthOpenApi(registry);
  registerOrganizationsOpenApi(registry);
  registerUsersOpenApi(registry);
  registerCollectiblesOpenApi(registry);
  registerClaimsOpenApi(registry);
  registerImagesOpenApi(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Collectibles Business Service",
      version: "0.1.0",
      description:
        "Organizations, users and their wallets; collectibles and claims minted on-chain. Every answer is an envelope: `{ data }`, " +
        "`{ pagination, data }` for lists, `{ error: { code, message, details } }` for errors.",
    },
  });
}
