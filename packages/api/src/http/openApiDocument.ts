/**
 * The OpenAPI 3.1 document, generated from the endpoint declarations: the same zod schemas the
 * routes validate with, and every answer `answersOf` says an endpoint can give, with its headers.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { ErrorResponse, IdempotencyHeaders } from "../schemas/common.ts";
import { type Answer, answersOf, type EndpointSpec } from "./endpoint.ts";
import { notAllowedSpecs } from "./methodNotAllowed.ts";
import { RESPONSE_HEADERS } from "./responseHeaders.ts";

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

/** The names of the answers every 405 declaration shares (`components.responses`). */
const SHARED_RESPONSES: Record<number, string> = {
  400: "BadRequest",
  405: "MethodNotAllowed",
  500: "InternalError",
};

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
  const register = (route: ReturnType<typeof pathOf>) => {
    if (operationIds.has(route.operationId ?? "")) {
      throw new Error(`two endpoints are declared as ${route.operationId}`);
    }
    operationIds.add(route.operationId ?? "");
    registry.registerPath(route);
  };
  for (const spec of specs) register(pathOf(spec));
  // Beside what each path takes, its 405 for the methods it does not: their answers are the same
  // on every path (only the summary names the path's methods), so they are written once.
  const shared = new Set<string>();
  for (const spec of notAllowedSpecs(specs)) {
    const route = pathOf(spec);
    for (const [status, answer] of answersOf(spec)) {
      const name = SHARED_RESPONSES[status] ?? `NotAllowed${status}`;
      if (!shared.has(name)) {
        registry.registerComponent("responses", name, {
          description: answer.description,
          headers: headersOf(answer),
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        });
        shared.add(name);
      }
      route.responses[status] = { $ref: `#/components/responses/${name}` };
    }
    register(route);
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

const headersOf = (answer: Answer) =>
  Object.fromEntries(answer.headers.map((name) => [name, { ...RESPONSE_HEADERS[name] }]));

function responseOf(status: number, answer: Answer) {
  const headers = headersOf(answer);
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
