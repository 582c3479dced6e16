/**
 * The OpenAPI 3.1 document, generated from the endpoint declarations: the same zod schemas the
 * routes validate with, and every answer `answersOf` says an endpoint can give, with its headers.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { ErrorResponse, IdempotencyHeaders } from "../schemas/common.ts";
import { type Answer, answersOf, type EndpointSpec } from "./endpoint.ts";
import { RESPONSE_HEADERS } from "./responseHeaders.ts";

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

const KEY_SECURITY: Record<string, string[]>[] = [{ basicAuth: [] }, { bearerAuth: [] }];

export function buildOpenApiDocument(specs: readonly EndpointSpec[]): OpenApiDocument {
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
  const operationIds = new Set<string>();
  for (const spec of specs) {
    if (operationIds.has(spec.operationId)) {
      throw new Error(`two endpoints are declared as ${spec.operationId}`);
    }
    operationIds.add(spec.operationId);
    registry.registerPath(pathOf(spec));
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Collectibles Business Service",
      version: "0.1.0",
      description:
        "Organizations, users and their wallets; collectibles and claims minted on-chain. Every " +
        "answer is an envelope: `{ data }`, `{ pagination, data }` for lists, " +
        "`{ error: { code, message, details } }` for errors.",
      license: { name: "MIT", identifier: "MIT" },
    },
    // Relative: the API answers wherever it is deployed (`pnpm start` serves it on port 3000).
    servers: [{ url: "/", description: "This API, where this document was served from" }],
  });
}

function pathOf(spec: EndpointSpec): Parameters<OpenAPIRegistry["registerPath"]>[0] {
  const { body } = spec;
  return {
    method: spec.method,
    path: spec.path,
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    security: spec.auth === "apiKey" ? KEY_SECURITY : [],
    request: {
      params: spec.params,
      query: spec.query,
      headers: spec.idempotent ? IdempotencyHeaders : undefined,
      body: body && {
        required: spec.method !== "patch",
        content: Object.fromEntries(
          body.contentTypes.map((type) => [
            type,
            {
              schema:
                type === "multipart/form-data" ? (body.formSchema ?? body.schema) : body.schema,
            },
          ]),
        ),
      },
    },
    responses: Object.fromEntries(
      [...answersOf(spec)].map(([status, answer]) => [status, responseOf(status, answer)]),
    ),
  };
}

function responseOf(status: number, answer: Answer) {
  const headers = Object.fromEntries(
    answer.headers.map((name) => [name, { ...RESPONSE_HEADERS[name] }]),
  );
  const schema = answer.schema ?? (status >= 400 ? ErrorResponse : undefined);
  const content = answer.media
    ? Object.fromEntries(
        answer.media.map((type) => [
          type,
          { schema: { type: "string" as const, format: "binary" } },
        ]),
      )
    : schema
      ? { "application/json": { schema } }
      : undefined;
  return { description: answer.description, headers, content };
}
