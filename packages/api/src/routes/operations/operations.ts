/**
 * Public operations endpoints: liveness, readiness, images and this API's own description; and
 * /metrics for an admin key.
 */
import { imageNotFound } from "../../errorCatalogue.ts";
import { type Endpoint, implement } from "../../http/endpoint.ts";
import { IMAGE_KEY_PATTERN } from "../../images/imageStorage.ts";
import { Health, NotReady, Readiness } from "../../schemas/operations.ts";
import { z } from "../../schemas/zod.ts";
import { requireAdmin } from "../../services/apiKeys.ts";
import { checkReadiness } from "../../services/readiness.ts";

const tag = "Operations";

const IMAGE_MEDIA = ["image/webp", "image/png", "image/jpeg", "image/gif"] as const;
const IMAGE_HEADER_NAMES = [
  "Cache-Control",
  "ETag",
  "Content-Security-Policy",
  "Cross-Origin-Resource-Policy",
] as const;

/** Served so a browser never interprets an image as anything but an image. */
const IMAGE_HEADERS = {
  "Cache-Control": "public, max-age=31536000, immutable",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Cross-Origin-Resource-Policy": "cross-origin",
};

export const operationEndpoints: readonly Endpoint[] = [
  implement(
    {
      operationId: "getHealth",
      method: "get",
      path: "/health",
      tag,
      summary: "Liveness: the process answers",
      auth: "public",
      responses: { 200: { description: "Alive", schema: Health } },
    },
    async () => ({ status: 200, body: { data: { status: "ok" } } }),
  ),

  implement(
    {
      operationId: "getImage",
      method: "get",
      path: "/images/{id}/{file}",
      tag: "Images",
      summary: "An uploaded image or one of its variants (public, cached for a year)",
      auth: "public",
      // Any text: a path that names no stored image answers 404, whatever its shape.
      params: z.strictObject({
        id: z.string().openapi({ param: { name: "id", in: "path" }, format: "uuid" }),
        file: z.string().openapi({ param: { name: "file", in: "path" }, example: "large.webp" }),
      }),
      responses: {
        200: { description: "The image", media: IMAGE_MEDIA, headers: IMAGE_HEADER_NAMES },
        304: {
          description: "Not modified since the ETag sent in If-None-Match",
          headers: IMAGE_HEADER_NAMES,
        },
      },
      errors: [404],
    },
    async ({ params, ifNoneMatch }, deps) => {
      // Keys are unguessable and immutable (a new upload gets a new id): the key is the ETag.
      const key = `${params.id}/${params.file}`;
      const object = IMAGE_KEY_PATTERN.test(key) ? await deps.storage.get(key) : undefined;
      if (!object) throw imageNotFound();
      const headers = { ...IMAGE_HEADERS, ETag: `"${key}"` };
      if (ifNoneMatch === headers.ETag) return { status: 304, body: undefined, headers };
      const body = { contentType: object.contentType, data: object.data };
      return { status: 200, body, headers };
    },
  ),

  implement(
    {
      operationId: "getMetrics",
      method: "get",
      path: "/metrics",
      tag,
      summary:
        "Prometheus metrics: requests, relayer backlog, indexer lag, webhooks, database pool",
      description:
        "The Prometheus text format, for an admin key (one not limited to an organization), as key management is. See the API's README for the series and the alerts to set on them.",
      auth: "apiKey",
      responses: {
        200: {
          description: "Every series, the gauges read at this request",
          media: ["text/plain"],
          headers: ["Cache-Control"],
        },
      },
      errors: [403],
    },
    async ({ auth }, deps) => {
      requireAdmin(auth, "Reading metrics");
      const data = Buffer.from(await deps.metrics.scrape());
      const headers = { "Cache-Control": "no-store" };
      return { status: 200, body: { contentType: deps.metrics.contentType, data }, headers };
    },
  ),

  implement(
    {
      operationId: "getOpenApiDocument",
      method: "get",
      path: "/openapi.json",
      tag,
      summary: "This document (OpenAPI 3.1)",
      auth: "public",
      responses: {
        200: { description: "The OpenAPI document", schema: z.record(z.string(), z.unknown()) },
      },
    },
    async (_input, deps) => ({ status: 200, body: deps.openApiDocument() }),
  ),

  implement(
    {
      operationId: "getReadiness",
      method: "get",
      path: "/ready",
      tag,
      summary: "Readiness: database, and chain and indexer when configured",
      auth: "public",
      responses: {
        200: {
          description: "Ready, or degraded when an optional dependency is down",
          schema: Readiness,
          headers: ["Cache-Control"],
        },
        503: {
          description:
            "A critical check (database, relayer, sync) is down; details list every check",
          schema: NotReady,
          headers: ["Cache-Control"],
        },
      },
    },
    async (_input, deps) => {
      const { status, checks } = await checkReadiness(deps.readiness);
      const headers = { "Cache-Control": "no-store" };
      if (status !== "unavailable")
        return { status: 200, body: { data: { status, checks } }, headers };
      const names = checks.filter((c) => c.status === "down").map((c) => c.name);
      const message = `Unavailable: ${names.join(", ")} down`;
      return {
        status: 503,
        body: { error: { code: "not_ready", message, details: checks } },
        headers,
      };
    },
  ),
];
