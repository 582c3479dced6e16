/**
 * The errors the API raises on purpose. Each carries a stable snake_case `code` and optional
 * `details`; `middleware/errorHandler.ts` maps the classes to HTTP statuses in one place.
 * Anything else thrown is an internal error and is never shown to a client.
 */

/** One entry of `error.details`: which input was wrong and why. */
export interface ErrorDetail {
  field?: string;
  code?: string;
  message: string;
  [key: string]: unknown;
}

export class BaseError extends Error {
  override name = "BaseError";
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;

  constructor(code: string, message: string, details?: ErrorDetail[]) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/** The input is malformed: wrong type, unknown field, out-of-range value (400). */
export class ValidationError extends BaseError {
  override name = "ValidationError";
  constructor(message: string, details?: ErrorDetail[], code = "validation_error") {
    super(code, message, details);
  }
}

/** No API key, an unknown one, or a revoked one (401). */
export class UnauthorizedError extends BaseError {
  override name = "UnauthorizedError";
  constructor(
    message = "A valid API key is required: use it as the Basic username (curl -u KEY:)",
  ) {
    super("unauthorized", message);
  }
}

/** No such object, or one outside the key's organization scope (404). */
export class NotFoundError extends BaseError {
  override name = "NotFoundError";
  constructor(code: string, message: string, details?: ErrorDetail[]) {
    super(code, message, details);
  }
}

/** The request conflicts with existing state: a duplicate, a non-empty parent (409). */
export class ConflictError extends BaseError {
  override name = "ConflictError";
}

/** The body is larger than accepted (413). */
export class PayloadTooLargeError extends BaseError {
  override name = "PayloadTooLargeError";
  constructor(message: string, details?: ErrorDetail[], code = "payload_too_large") {
    super(code, message, details);
  }
}

/** The body's content type is not one the endpoint reads (415). */
export class UnsupportedMediaTypeError extends BaseError {
  override name = "UnsupportedMediaTypeError";
  constructor(message: string) {
    super("unsupported_media_type", message);
  }
}

/** Well-formed but impossible, such as a parent that would make a cycle (422). */
export class UnprocessableError extends BaseError {
  override name = "UnprocessableError";
}

/** Too many requests for this key; `retryAfterSeconds` goes into `Retry-After` (429). */
export class RateLimitedError extends BaseError {
  override name = "RateLimitedError";
  constructor(readonly retryAfterSeconds: number) {
    super("rate_limited", `Too many requests: retry after ${retryAfterSeconds} s`);
  }
}

/** A dependency (database, chain, indexer) is unreachable (503). */
export class ServiceUnavailableError extends BaseError {
  override name = "ServiceUnavailableError";
}
