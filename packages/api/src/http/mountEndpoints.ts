/**
 * Turns endpoint declarations into Express routes: each gets the middleware its declaration asks
 * for (key and rate limit, content type and body parsing, Idempotency-Key), its input validated
 * against the declared schemas, and its handler's reply written out. A path answers 405 with
 * `Allow` for a method it does not declare (`methodNotAllowed.ts`).
 */
import { type Request, type RequestHandler, type Response, Router } from "express";
import type { RouteDeps } from "../deps.ts";
import { MethodNotAllowedError } from "../errors.ts";
import { keyGuard } from "../middleware/auth.ts";
import { jsonBody, multipartBody, requireContentType } from "../middleware/bodyParsers.ts";
import { parseBody, parseInput } from "../middleware/validate.ts";
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
    chain.push(handlerFor(endpoint, deps));
    router[spec.method](expressPath(spec.path), ...chain);
  }
  for (const [path, allow] of allowByPath) router.all(path, refuse(path, allow));
  return router;
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
      query: spec.query ? parseInput(spec.query, req.query, "query") : {},
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
