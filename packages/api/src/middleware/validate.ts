/**
 * Parses request input with a zod schema; failures become a 400 whose message and details name
 * every offending field (`limit`, `parent_id`, `logo`, or `body` for the body as a whole).
 */
import type { z } from "zod";
import { type ErrorDetail, ValidationError } from "../errors.ts";

export type InputLocation = "body" | "query" | "path";

const LOCATION_NAMES: Record<InputLocation, string> = {
  body: "request body",
  query: "query parameters",
  path: "path parameters",
};

export function parseInput<T extends z.ZodType>(
  schema: T,
  value: unknown,
  location: InputLocation,
): z.output<T> {
  if (
    location === "body" &&
    (value === null || typeof value !== "object" || Array.isArray(value))
  ) {
    throw new ValidationError("Invalid request body: body: must be a JSON object", [
      { field: "body", code: "invalid_type", message: "must be a JSON object" },
    ]);
  }
  const nul = pathOfNul(value, []);
  if (nul) {
    const field = nul.join(".") || location;
    const message = "must not contain the NUL character (U+0000)";
    throw new ValidationError(`Invalid ${LOCATION_NAMES[location]}: ${field}: ${message}`, [
      { field, code: "invalid_character", message },
    ]);
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.flatMap((issue): ErrorDetail[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        field: [...issue.path, key].join("."),
        code: "unknown_field",
        message: "is not a known field",
      }));
    }
    const field = issue.path.map(String).join(".") || (location === "body" ? "body" : location);
    const missing = issue.code === "invalid_type" && valueAt(value, issue.path) === undefined;
    return [
      {
        field,
        code: missing ? "required" : issue.code,
        message: missing ? "is required" : issue.message,
      },
    ];
  });
  const summary = details.map((d) => `${d.field}: ${d.message}`).join("; ");
  throw new ValidationError(`Invalid ${LOCATION_NAMES[location]}: ${summary}`, details);
}

/** Where the first text holding U+0000 is: PostgreSQL cannot store it in a text column. */
function pathOfNul(value: unknown, path: string[]): string[] | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes("\u0000")) return [...path, key];
    const found = pathOfNul(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Fields a client may not send, with the reason (`wallet_address` of an organization is assigned
 * by the service). Checked before the schema so the answer says why, not just "unknown field".
 */
export function rejectFields(body: unknown, reasons: Record<string, string>): void {
  if (!body || typeof body !== "object") return;
  const details: ErrorDetail[] = Object.keys(reasons)
    .filter((field) => Object.hasOwn(body, field))
    .map((field) => ({ field, code: "not_writable", message: reasons[field] ?? "cannot be set" }));
  if (details.length > 0) {
    const summary = details.map((d) => `${d.field}: ${d.message}`).join("; ");
    throw new ValidationError(`Invalid request body: ${summary}`, details);
  }
}
