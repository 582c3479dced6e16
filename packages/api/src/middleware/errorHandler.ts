/**
 * The one place errors become HTTP answers: `{ error: { code, message, details? } }`.
 * Known errors keep their code and message; anything else is logged with its stack and answered
 * as a bare 500, so no stack trace, SQL or key material ever reaches a client.
 */
import type { ErrorRequestHandler, RequestHandler } from "express";
import {
  BaseError,
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnprocessableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../errors.ts";

const STATUS_BY_CLASS: [new (...args: never[]) => BaseError, number][] = [
  [ValidationError, 400],
  [UnauthorizedError, 401],
  [NotFoundError, 404],
  [ConflictError, 409],
  [PayloadTooLargeError, 413],
  [UnsupportedMediaTypeError, 415],
  [UnprocessableError, 422],
  [RateLimitedError, 429],
  [ServiceUnavailableError, 503],
];

export function statusOf(error: BaseError): number {
  return STATUS_BY_CLASS.find(([type]) => error instanceof type)?.[1] ?? 500;
}

/** Errors raised by Express's own body parser (they carry `type` and `status`). */
function fromBodyParser(error: unknown): BaseError | undefined {
  if (!error || typeof error !== "object" || !("type" in error)) return undefined;
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
  const known = error instanceof BaseError ? error : fromBodyParser(error);
  if (res.headersSent) {
    req.log?.error({ err: error }, "error after the response started");
    res.destroy();
    return;
  }
  if (!known) {
    req.log?.error({ err: error }, "unhandled error");
    res.status(500).json({ error: { code: "internal_error", message: "Internal server error" } });
    return;
  }
  const status = statusOf(known);
  if (known instanceof UnauthorizedError) {
    res.set("WWW-Authenticate", 'Basic realm="collectibles", charset="UTF-8"');
  }
  if (known instanceof RateLimitedError) res.set("Retry-After", String(known.retryAfterSeconds));
  if (status >= 500) req.log?.error({ err: error }, known.message);
  res.status(status).json({
    error: {
      code: known.code,
      message: known.message,
      ...(known.details ? { details: known.details } : {}),
    },
  });
};

export const notFoundHandler: RequestHandler = (req) => {
  throw new NotFoundError("route_not_found", `No route ${req.method} ${req.path}`);
};
