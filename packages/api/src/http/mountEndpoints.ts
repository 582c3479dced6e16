/**
 * Turns endpoint declarations into Express routes: each gets the middleware its declaration asks
 * for (key and rate limit, content type and body parsing, Idempotency-Key), its input validated
 * against the declared schemas, and its handler's reply written out. A path answers 405 with
 * `Allow` for a method it does not declare (`methodNotAllowed.ts`).
 *
 * Input that fails its schema is answered 400, the message and details naming every offending
 * field (`limit`, `parent_id`, `logo`, or `body` for the body as a whole).
 *
 * A key's reads (GET) are answered READ_CONCURRENCY at a time per process, the others waiting
 * their turn; writes never wait for them (docs/performance.md, "Reads take turns").
 */
import { type Request, type RequestHandler, type Response, Router } from "express";
import pLimit, { type LimitFunction } from "p-limit";
import type { z } from "zod";
import type { RouteDeps } from "../deps.ts";
import { type ErrorDetail, MethodNotAllowedError, ValidationError } from "../errors.ts";
import { keyGuard } from "../middleware/auth.ts";
import { jsonBody, multipartBody, requireContentType } from "../middleware/bodyParsers.ts";
import {
  type AnyInput,
  type AnyReply,
  type BodySpec,
  type Endpoint,
  type EndpointSpec,
  expressPath,
} from "./endpoint.ts";
import { answerIdempotently } from "./idempotency.ts";
import { allowedMethods, notAllowedSpecOf } from "./methodNotAllowed.ts";

declare global {
  namespace Express {
    interface Locals {
      /** The declaration of the endpoint answering this request (for the response audit). */
      endpoint?: EndpointSpec;
    }
  }
}

export function mountEndpoints(endpoints: readonly Endpoint[], deps: RouteDeps): Router {
  const router = Router();
  const guard = keyGuard(deps.db, deps.config);
  const reads = pLimit(deps.config.READ_CONCURRENCY);
  const specs = endpoints.map(({ spec }) => spec);
  const allowByPath = [...allowedMethods(specs)].map(
    ([path, allow]) => [expressPath(path), allow] as const,
  );
  const notAllowedSpec = notAllowedSpecOf(specs);
  const refuse = (path: string, allow: string[]): RequestHandler => {
    return (req, res) => {
      // Its declaration in the document, for the response audit.
      res.locals.endpoint = notAllowedSpec(req.method, path);
      throw new MethodNotAllowedError(req.method, req.path, allow);
    };
  };
  // A path without parameters answers its other methods 405 before any route runs: GET
  // /claims/batch is not GET /claims/{id} with the id "batch".
  for (const [path, allow] of allowByPath) {
    if (path.includes(":")) continue;
    const refused = refuse(path, allow);
    router.all(path, (req, res, next) => {
      if (allow.includes(req.method)) return next();
      refused(req, res, next);
    });
  }
  for (const endpoint of endpoints) {
    const { spec } = endpoint;
    const chain: RequestHandler[] = [
      (_req, res, next) => {
        res.locals.endpoint = spec;
        next();
      },
    ];
    if (spec.auth === "apiKey") chain.push(...guard);
    if (spec.body) chain.push(...bodyParsersFor(spec.body, deps));
    const handler = handlerFor(endpoint, deps);
    chain.push(spec.auth === "apiKey" && spec.method === "get" ? inTurn(reads, handler) : handler);
    router[spec.method](expressPath(spec.path), ...chain);
  }
  for (const [path, allow] of allowByPath) router.all(path, refuse(path, allow));
  return router;
}

/**
 * `handler` in its turn among the reads: a turn lasts until its answer is handed to the socket,
 * not until the client has read it (a client that reads slowly holds no turn). A client that
 * left while waiting is not answered: its read is not run.
 */
function inTurn(reads: LimitFunction, handler: RequestHandler): RequestHandler {
  return (req, res, next) =>
    reads(async () => {
      if (!req.socket.destroyed) await handler(req, res, next);
    });
}

function bodyParsersFor(body: BodySpec, deps: RouteDeps): RequestHandler[] {
  const parsers = [
    requireContentType([...body.contentTypes]),
    jsonBody(body.maxBytes(deps.config)),
  ];
  if (body.files) parsers.push(multipartBody([...body.files], deps.config.MAX_IMAGE_BYTES));
  return parsers;
}

function handlerFor(endpoint: Endpoint, deps: RouteDeps): RequestHandler {
  const { spec } = endpoint;
  return async (req, res) => {
    // Parsed inside the idempotent path too, so a refused request's answer is remembered.
    const parse = (): AnyInput => ({
      params: spec.params ? parseInput(spec.params, req.params, "path") : {},
      query: spec.query ? parseInput(spec.query, req.query, "query") : noQuery(spec, req.query),
      body: spec.body ? parseBody(spec.body, bodyOf(req, spec)) : undefined,
      files: filesOf(req),
      auth: res.locals.auth,
      baseUrl: deps.baseUrl(),
      ifNoneMatch: req.get("if-none-match"),
      idempotency: undefined,
    });
    const reply = spec.idempotent
      ? await answerIdempotently(req, res, endpoint, parse, deps)
      : await endpoint.handle(parse(), deps);
    send(res, reply);
  };
}

/**
 * A key's endpoint that takes no query parameters refuses any, as a list refuses an unknown
 * filter: `GET /webhooks?organization_id=…` must not quietly answer every webhook. Public ones
 * (health, images) let a monitor's or a cache's parameters through.
 */
function noQuery(spec: EndpointSpec, query: object): Record<string, never> {
  const names = Object.keys(query);
  if (spec.auth !== "apiKey" || names.length === 0) return {};
  const message = "is not a known field";
  throw new ValidationError(
    `Invalid query parameters: ${names.map((name) => `${name}: ${message}`).join("; ")}`,
    names.map((field) => ({ field, code: "unknown_field", message })),
  );
}

// Request input, checked against the declaration's schemas.
type InputLocation = "body" | "query" | "path";

const LOCATION_NAMES: Record<InputLocation, string> = {
  body: "request body",
  query: "query parameters",
  path: "path parameters",
};

/** What a body is checked against: its schema, and the fields a client may not send (and why). */
interface BodyRules {
  schema: z.ZodType;
  readOnly?: Readonly<Record<string, string>>;
}

/** A body: a JSON object, without read-only fields, valid against the declared schema. */
function parseBody<B extends BodyRules>(spec: B, value: unknown): z.output<B["schema"]> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ValidationError("Invalid request body: body: must be a JSON object", [
      { field: "body", code: "invalid_type", message: "must be a JSON object" },
    ]);
  }
  if (spec.readOnly) rejectFields(value, spec.readOnly);
  return parseInput(spec.schema, value, "body") as z.output<B["schema"]>;
}

function parseInput<T extends z.ZodType>(
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

/**
 * Multipart text fields arrive as strings in a null-prototype object (integers declared by the
 * endpoint are read as numbers); an absent PATCH body changes nothing.
 */
function bodyOf(req: Request, spec: EndpointSpec): unknown {
  const body: unknown = req.body;
  if (body === undefined && spec.method === "patch") return {};
  if (!body || typeof body !== "object" || Object.getPrototypeOf(body) !== null) return body;
  const fields: Record<string, unknown> = { ...body };
  for (const name of spec.body?.formIntegers ?? []) {
    const text = fields[name];
    if (typeof text === "string" && /^-?\d{1,15}$/.test(text)) fields[name] = Number(text);
  }
  return fields;
}

function filesOf(req: Request): Partial<Record<string, Buffer>> {
  const files = req.files as Record<string, Express.Multer.File[] | undefined> | undefined;
  if (!files || Array.isArray(files)) return {};
  return Object.fromEntries(
    Object.entries(files).flatMap(([field, list]) => (list?.[0] ? [[field, list[0].buffer]] : [])),
  );
}

function send(res: Response, reply: AnyReply): void {
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.set(name, value);
  res.status(reply.status);
  const body: unknown = reply.body;
  if (body === undefined) {
    res.end();
  } else if (Buffer.isBuffer((body as { data?: unknown }).data)) {
    const binary = body as { contentType: string; data: Buffer };
    res.type(binary.contentType).send(binary.data);
  } else {
    res.json(body);
  }
}
