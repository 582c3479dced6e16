/**
 * The API's error answers as one class: every non-2xx answer is `{ error: { code, message,
 * details? } }`, so callers match on `code` (and `status`), never on the message text.
 * `unwrap` turns openapi-fetch's `{ data, error, response }` into the data or this error.
 */
import type { components } from "./schema.ts";

/** The body of every error answer, as the OpenAPI document declares it. */
export type ErrorBody = components["schemas"]["Error"];
/** One entry of `error.details`: for validation errors, the field and what is wrong with it. */
export type ErrorDetail = NonNullable<ErrorBody["error"]["details"]>[number];

export class CollectiblesApiError extends Error {
  override readonly name = "CollectiblesApiError";
  /** The HTTP status (404, 409, ...). */
  readonly status: number;
  /** The API's machine-readable code: `not_found`, `validation_error`, `sold_out`, ... */
  readonly code: string;
  readonly details: ErrorDetail[];
  /** The answer's X-Request-Id, to quote when asking the operator about it. */
  readonly requestId: string | undefined;

  constructor(status: number, body: ErrorBody["error"], requestId?: string) {
    super(body.message);
    this.status = status;
    this.code = body.code;
    this.details = body.details ?? [];
    this.requestId = requestId;
  }

  /**
   * The error for an answer that is not 2xx. A body that is not the API's error envelope (a
   * proxy's HTML page, an empty 502) still gives an error, coded `http_<status>`.
   */
  static fromResponse(response: Response, body: unknown): CollectiblesApiError {
    const requestId = response.headers.get("x-request-id") ?? undefined;
    if (isErrorBody(body)) return new CollectiblesApiError(response.status, body.error, requestId);
    const message = `HTTP ${response.status} ${response.statusText}`.trim();
    return new CollectiblesApiError(
      response.status,
      { code: `http_${response.status}`, message },
      requestId,
    );
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error = (body as { error: unknown }).error;
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { code?: unknown }).code === "string" &&
    typeof (error as { message?: unknown }).message === "string"
  );
}

/** What every openapi-fetch call resolves to (the fields used here). */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * The answer's body, or a thrown `CollectiblesApiError`:
 * `const { data: org } = await unwrap(api.POST("/organizations", { body: { name: "Acme" } }))`.
 */
export async function unwrap<R extends FetchResult>(
  call: Promise<R> | R,
): Promise<Exclude<R["data"], undefined>> {
  const result = await call;
  if (result.error !== undefined || !result.response.ok) {
    throw CollectiblesApiError.fromResponse(result.response, result.error);
  }
  return result.data as Exclude<R["data"], undefined>;
}
