/**
 * Every response header the API sets on purpose, with what it means: the OpenAPI document
 * describes each from here, and the response audit refuses any other (see `responseAudit.ts`).
 */

interface HeaderDoc {
  description: string;
  schema: { type: "string" | "integer"; enum?: string[]; example?: string; minimum?: number };
}

export const RESPONSE_HEADERS = {
  "X-Request-Id": {
    description: "The request's id: the client's well-formed X-Request-Id, or a generated UUID",
    schema: { type: "string" },
  },
  "X-Content-Type-Options": {
    description: "Always nosniff",
    schema: { type: "string", enum: ["nosniff"] },
  },
  RateLimit: {
    description:
      "Requests left in the current window and seconds until it resets (IETF draft 8 RateLimit)",
    schema: { type: "string", example: '"per-key";r=599;t=60' },
  },
  "RateLimit-Policy": {
    description: "The limit that applies: requests per window (IETF draft 8 RateLimit-Policy)",
    schema: { type: "string", example: '"per-key";q=600;w=60' },
  },
  "Retry-After": {
    description: "Seconds to wait before trying again",
    schema: { type: "integer", minimum: 0 },
  },
  "WWW-Authenticate": {
    description: "Basic realm; send the API key as the Basic username (curl -u KEY:)",
    schema: { type: "string" },
  },
  Location: {
    description: "Path of the created (or accepted) object",
    schema: { type: "string", example: "/claims/5b0e6a4e-8d5c-4f55-9d7b-7d0d0d3e6a11" },
  },
  "Idempotent-Replayed": {
    description: "true when this is the stored answer to an earlier request with the same key",
    schema: { type: "string", enum: ["true"] },
  },
  Allow: {
    description: "The methods the path accepts",
    schema: { type: "string", example: "GET, POST" },
  },
  "Cache-Control": {
    description: "How long the answer may be cached",
    schema: { type: "string" },
  },
  ETag: {
    description: "Validator of the image; send it back in If-None-Match",
    schema: { type: "string" },
  },
  "Content-Security-Policy": {
    description: "Images are served sandboxed: a browser never runs anything in them",
    schema: { type: "string" },
  },
  "Cross-Origin-Resource-Policy": {
    description: "Images may be embedded from other origins",
    schema: { type: "string", enum: ["cross-origin"] },
  },
} satisfies Record<string, HeaderDoc>;

export type HeaderName = keyof typeof RESPONSE_HEADERS;

/**
 * Headers of HTTP itself, set by Node or Express on every answer: an OpenAPI document does not
 * describe them (Content-Type is the media type of the content entry).
 */
export const PROTOCOL_HEADERS = new Set([
  "content-type",
  "content-length",
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "vary",
]);
