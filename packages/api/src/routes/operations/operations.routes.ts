/** Public operations endpoints: liveness, readiness, images and this API's own description. */
import { defineEndpoint } from "../../http/endpoint.ts";
import { Health, NotReady, Readiness } from "../../schemas/operations.ts";
import { z } from "../../schemas/zod.ts";

const tag = "Operations";

export const getHealth = defineEndpoint({
  operationId: "getHealth",
  method: "get",
  path: "/health",
  tag,
  summary: "Liveness: the process answers",
  auth: "public",
  responses: { 200: { description: "Alive", schema: Health } },
});

export const getReadiness = defineEndpoint({
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
      description: "A critical dependency (the database) is down; details list every check",
      schema: NotReady,
      headers: ["Cache-Control"],
    },
  },
});

const IMAGE_MEDIA = ["image/webp", "image/png", "image/jpeg", "image/gif"] as const;
const IMAGE_HEADERS = [
  "Cache-Control",
  "ETag",
  "Content-Security-Policy",
  "Cross-Origin-Resource-Policy",
] as const;

export const getImage = defineEndpoint({
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
    200: { description: "The image", media: IMAGE_MEDIA, headers: IMAGE_HEADERS },
    304: {
      description: "Not modified since the ETag sent in If-None-Match",
      headers: IMAGE_HEADERS,
    },
  },
  errors: [404],
});

export const getMetrics = defineEndpoint({
  operationId: "getMetrics",
  method: "get",
  path: "/metrics",
  tag,
  summary: "Prometheus metrics: requests, relayer backlog, indexer lag, webhooks, database pool",
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
});

export const getOpenApiDocument = defineEndpoint({
  operationId: "getOpenApiDocument",
  method: "get",
  path: "/openapi.json",
  tag,
  summary: "This document (OpenAPI 3.1)",
  auth: "public",
  responses: {
    200: { description: "The OpenAPI document", schema: z.record(z.string(), z.unknown()) },
  },
});
