/**
 * The errors the API raises on purpose, and the HTTP status each stands for. Each carries a stable
 * snake_case `code` and optional `details`; `middleware/errorHandler.ts` turns them into the one
 * error body. Anything else thrown is an internal error and is never shown to a client.
 *
 * Named `ApiError` (not `BaseError`, which is viem's) so a caller can tell ours from the chain
 * library's at a glance.
 */

/** One entry of `error.details`: which input was wrong and why. */
export interface ErrorDetail {
  field?: string;
  code?: string;
  message: string;
  [key: string]: unknown;
}

export abstract class ApiError extends Error {
  abstract readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;

  constructor(code: string, message: string, details?: ErrorDetail[]) {
    super(message);
    this.code = code;
    this.details = details;
  }

  override get name(): string {
    return this.constructor.name;
  }
}

/** The input is malformed: wrong type, unknown field, out-of-range value (400). */
export class ValidationError extends ApiError {
  readonly status = 400;
  constructor(message: string, details?: ErrorDetail[], code = "validation_error") {
    super(code, message, details);
  }
}

/** No API key, an unknown one, or a revoked one (401). */
export class UnauthorizedError extends ApiError {
  readonly status = 401;
  constructor(
    message = "A valid API key is required: use it as the Basic username (curl -u KEY:)",
  ) {
    super("unauthorized", message);
  }
}

/** The key may not do this: a write with a read-only key, key management with a scoped key (403). */
export class ForbiddenError extends ApiError {
  readonly status = 403;
}

/** No such object, or one outside the key's organization scope (404). */
export class NotFoundError extends ApiError {
  readonly status = 404;
}

/** The path exists, but not with this method; `allow` lists the methods it has (405). */
export class MethodNotAllowedError extends ApiError {
  readonly status = 405;
  readonly allow: string[];
  constructor(method: string, path: string, allow: string[]) {
    super("method_not_allowed", `${method} is not allowed on ${path}; use ${allow.join(", ")}`);
    this.allow = allow;
  }
}

/** The request conflicts with existing state: a duplicate, a non-empty parent (409). */
export class ConflictError extends ApiError {
  readonly status = 409;
}

/** The body is larger than accepted (413). */
export class PayloadTooLargeError extends ApiError {
  readonly status = 413;
  constructor(message: string, details?: ErrorDetail[], code = "payload_too_large") {
    super(code, message, details);
  }
}

/** The body's content type is not one the endpoint reads (415). */
export class UnsupportedMediaTypeError extends ApiError {
  readonly status = 415;
  constructor(message: string) {
    super("unsupported_media_type", message);
  }
}

/** Well-formed but impossible, such as a parent that would make a cycle (422). */
export class UnprocessableError extends ApiError {
  readonly status = 422;
}

/** Too many requests; `retryAfterSeconds` goes into `Retry-After` (429). */
export class RateLimitedError extends ApiError {
  readonly status = 429;
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("rate_limited", `Too many requests: retry after ${retryAfterSeconds} s`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A dependency (database, chain, indexer) is unreachable or not configured (503). */
export class ServiceUnavailableError extends ApiError {
  readonly status = 503;
}
