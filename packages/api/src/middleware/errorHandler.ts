/**
 * The one place errors become HTTP answers: `{ error: { code, message, details? } }`.
 * Known errors keep their code and message; anything else is logged with its stack and answered
 * as a bare 500, so no stack trace, SQL or key material ever reaches a client.
 */
import type { ErrorRequestHandler, RequestHandler } from "express";
import { routeNotFound } from "../errorCatalogue.ts";
import {
  ApiError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RateLimitedError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../errors.ts";
import { requestLog } from "./requestLogger.ts";

/** Errors Express raises itself: its body parser's (they carry `type`), and its router's. */
function fromFramework(error: unknown): ApiError | undefined {
  if (!error || typeof error !== "object") return undefined;
  // The router cannot percent-decode a path parameter (`/claims/%E0%A4%A`).
  if (
    error instanceof URIError ||
    /^Failed to decode param/.test(String((error as Error).message))
  ) {
    return new ValidationError("The path is not valid percent-encoded UTF-8", [
      { field: "path", code: "invalid_path", message: "malformed percent-encoding" },
    ]);
  }
  if (!("type" in error)) return undefined;
  const { type, limit } = error as { type: unknown; limit?: unknown };
  switch (type) {
    case "entity.too.large":
      return new PayloadTooLargeError(`Request body is larger than ${limit} bytes`);
    case "entity.parse.failed":
      return new ValidationError("Request body is not valid JSON", [
        { field: "body", code: "invalid_json", message: "is not valid JSON" },
      ]);
    case "charset.unsupported":
    case "encoding.unsupported":
      return new UnsupportedMediaTypeError("Unsupported body charset or content encoding");
    case "request.aborted":
    case "request.size.invalid":
      return new ValidationError("The request body was incomplete");
    default:
      return undefined;
  }
}

export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const known = error instanceof ApiError ? error : fromFramework(error);
  if (res.headersSent) {
    requestLog(req)?.error({ err: error }, "error after the response started");
    res.destroy();
    return;
  }
  if (!known) {
    requestLog(req)?.error({ err: error }, "unhandled error");
    res.status(500).json({ error: { code: "internal_error", message: "Internal server error" } });
    return;
  }
  const { status } = known;
  if (known instanceof UnauthorizedError) {
    res.set("WWW-Authenticate", 'Basic realm="collectibles", charset="UTF-8"');
  }
  if (known instanceof RateLimitedError) res.set("Retry-After", String(known.retryAfterSeconds));
  if (known instanceof MethodNotAllowedError) res.set("Allow", known.allow.join(", "));
  if (status >= 500) requestLog(req)?.error({ err: error }, known.message);
  res.status(status).json({
    error: {
      code: known.code,
      message: known.message,
      ...(known.details ? { details: known.details } : {}),
    },
  });
};

export const notFoundHandler: RequestHandler = (req) => {
  throw routeNotFound(req.method, req.path);
};
