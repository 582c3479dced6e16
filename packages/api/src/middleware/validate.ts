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

/** What a body is checked against: its schema, and the fields a client may not send (and why). */
export interface BodyRules {
  schema: z.ZodType;
  readOnly?: Readonly<Record<string, string>>;
}

/** A body: a JSON object, without read-only fields, valid against the declared schema. */
export function parseBody<B extends BodyRules>(spec: B, value: unknown): z.output<B["schema"]> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ValidationError("Invalid request body: body: must be a JSON object", [
      { field: "body", code: "invalid_type", message: "must be a JSON object" },
    ]);
  }
  if (spec.readOnly) rejectFields(value, spec.readOnly);
  return parseInput(spec.schema, value, "body") as z.output<B["schema"]>;
}

export function parseInput<T extends z.ZodType>(
  schema: T,
  value: unknown,
  location: InputLocation,
): z.output<T> {
  // Text reaches the database from bodies and query filters; path values are matched exactly.
  const nul = location === "path" ? undefined : pathOfNul(value);
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
    // A rule across fields names its own code (`params: { code }` of a refinement).
    const custom = issue.code === "custom" ? (issue.params?.code as string | undefined) : undefined;
    return [
      {
        field,
        code: missing ? "required" : (custom ?? issue.code),
        message: missing ? "is required" : issue.message,
      },
    ];
  });
  const summary = details.map((d) => `${d.field}: ${d.message}`).join("; ");
  throw new ValidationError(`Invalid ${LOCATION_NAMES[location]}: ${summary}`, details);
}

/**
 * Where the first text holding U+0000 is (PostgreSQL cannot store it in a text column). Walks
 * the value with an explicit stack, each node once, and builds the path only for a hit: no
 * recursion over request data and no work per level of nesting.
 */
function pathOfNul(value: unknown): string[] | undefined {
  interface Node {
    value: unknown;
    key?: string;
    parent?: Node;
  }
  const pathTo = (node: Node | undefined, last?: string): string[] => {
    const path = last === undefined ? [] : [last];
    for (let n = node; n?.key !== undefined; n = n.parent) path.push(n.key);
    return path.reverse();
  };
  const stack: Node[] = [{ value }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const current = node.value;
    if (typeof current === "string") {
      if (current.includes("\u0000")) return pathTo(node);
    } else if (current !== null && typeof current === "object") {
      const keys = Object.keys(current);
      // Pushed in reverse so the first field is looked at first.
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        if (key.includes("\u0000")) return pathTo(node, key);
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: node });
      }
    }
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
function rejectFields(body: object, reasons: Readonly<Record<string, string>>): void {
  const details: ErrorDetail[] = Object.keys(reasons)
    .filter((field) => Object.hasOwn(body, field))
    .map((field) => ({ field, code: "not_writable", message: reasons[field] ?? "cannot be set" }));
  if (details.length > 0) {
    const summary = details.map((d) => `${d.field}: ${d.message}`).join("; ");
    throw new ValidationError(`Invalid request body: ${summary}`, details);
  }
}
