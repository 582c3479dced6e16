/**
 * Every response header the API sets on purpose, with what it means: the OpenAPI document
 * describes each from here, and the response audit refuses any other (see `responseAudit.ts`).
 */

interface HeaderDoc {
  description: string;
  schema: { type: "string" | "integer"; enum?: string[]; example?: string; minimum?: number };
}

/** Most headers are strings: only what narrows one (enum, example) is written out. */
const stringHeader = (
  description: string,
  schema: Omit<HeaderDoc["schema"], "type"> = {},
): HeaderDoc => ({ description, schema: { type: "string", ...schema } });

export const RESPONSE_HEADERS = {
  "X-Request-Id": stringHeader(
    "The request's id: the client's well-formed X-Request-Id, or a generated UUID",
  ),
  "X-Content-Type-Options": stringHeader("Always nosniff", { enum: ["nosniff"] }),
  RateLimit: stringHeader(
    "Requests left in the current window and seconds until it resets (IETF draft 8 RateLimit)",
    { example: '"per-key";r=599;t=60' },
  ),
  "RateLimit-Policy": stringHeader(
    "The limit that applies: requests per window (IETF draft 8 RateLimit-Policy)",
    { example: '"per-key";q=600;w=60' },
  ),
  "Retry-After": {
    description: "Seconds to wait before trying again",
    schema: { type: "integer", minimum: 0 },
  },
  "WWW-Authenticate": stringHeader(
    "Basic realm; send the API key as the Basic username (curl -u KEY:)",
  ),
  Location: stringHeader("Path of the created (or accepted) object", {
    example: "/claims/5b0e6a4e-8d5c-4f55-9d7b-7d0d0d3e6a11",
  }),
  "Idempotent-Replayed": stringHeader(
    "true when this is the stored answer to an earlier request with the same key",
    { enum: ["true"] },
  ),
  Allow: stringHeader("The methods the path accepts", { example: "GET, POST" }),
  "Cache-Control": stringHeader("How long the answer may be cached"),
  ETag: stringHeader("Validator of the image; send it back in If-None-Match"),
  "Content-Security-Policy": stringHeader(
    "Images are served sandboxed: a browser never runs anything in them",
  ),
  "Cross-Origin-Resource-Policy": stringHeader("Images may be embedded from other origins", {
    enum: ["cross-origin"],
  }),
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
