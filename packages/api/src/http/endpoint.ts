/**
 * One declaration per endpoint: method, path, input schemas, answers (status, body schema,
 * headers), security and summary. `mountEndpoints.ts` derives the Express route, its middleware
 * and the input validation from it, `openApiDocument.ts` the document, and `Handler<E>` the
 * handler's types, so none of them can drift from the others.
 *
 * A declaration lists what the handler itself answers (`responses`) and the errors it raises
 * (`errors`); what shared middleware can answer (`400` for any input, `401`/`429` for a key,
 * `413`/`415` for a body, `422` for Idempotency-Key, ...) is added by `answersOf`, not by hand.
 */

import type { z } from "zod";
import type { IdempotentWrite } from "../db/idempotencyKeys.ts";
import type { RouteDeps } from "../deps.ts";
import type { AuthContext } from "../domain/auth.ts";
import type { Env } from "../env.ts";
import type { HeaderName } from "./responseHeaders.ts";

export type Method = "get" | "put" | "post" | "patch" | "delete";

export interface ResponseSpec {
  description: string;
  /** The JSON body's schema; absent for binary answers (`media`) and bodiless ones. */
  schema?: z.ZodType;
  /** Binary content types, for answers that are not JSON (images). */
  media?: readonly string[];
  /** Headers this answer carries besides those every answer of the endpoint carries. */
  headers?: readonly HeaderName[];
}

export type ContentType = "application/json" | "multipart/form-data";

export interface BodySpec {
  schema: z.ZodType;
  contentTypes: readonly ContentType[];
  /** The largest body accepted, from the configuration (413 past it). */
  maxBytes(config: Env): number;
  /** Multipart file fields (images), each at most MAX_IMAGE_BYTES. */
  files?: readonly string[];
  /** The multipart form as documented (file fields as binary strings). */
  formSchema?: z.ZodType;
  /**
   * Multipart text fields that hold integers: a part of decimal digits is read as the number
   * (anything else stays text, and validation names it).
   */
  formIntegers?: readonly string[];
  /** Fields a client may not send, with the reason given in the 400. */
  readOnly?: Readonly<Record<string, string>>;
}

export interface EndpointSpec {
  operationId: string;
  method: Method;
  /** OpenAPI form: `/claims/{id}`. */
  path: `/${string}`;
  tag: string;
  summary: string;
  description?: string;
  /** `apiKey`: Basic or Bearer key, rate limited per key. `public`: no key. */
  auth: "apiKey" | "public";
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: BodySpec;
  /** A POST that honours Idempotency-Key (a retry gets the first answer again). */
  idempotent?: boolean;
  /** What the handler answers. */
  responses: { readonly [status: number]: ResponseSpec };
  /** Error statuses the handler (or the service it calls) raises. */
  errors?: readonly number[];
}

/** Identity with the declaration's literal types kept, for `Handler<typeof endpoint>`. */
export function defineEndpoint<const E extends EndpointSpec>(spec: E): E {
  return spec;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

/** What a handler receives: validated input and who is asking. */
export interface RequestInput<E extends EndpointSpec> {
  params: Parsed<E["params"]>;
  query: Parsed<E["query"]>;
  body: E["body"] extends BodySpec ? z.output<E["body"]["schema"]> : undefined;
  /** Uploaded files by field (multipart bodies). */
  files: Partial<Record<string, Buffer>>;
  auth: E["auth"] extends "apiKey" ? AuthContext : undefined;
  /** Where this API is reached, for links in answers. */
  baseUrl: string;
  /** Conditional-request validator sent by the client. */
  ifNoneMatch: string | undefined;
  /** Set for a create under an Idempotency-Key: its record goes into the object's transaction. */
  idempotency: IdempotentWrite | undefined;
}

type BodyOf<R> = R extends { schema: z.ZodType }
  ? z.input<R["schema"]>
  : R extends { media: readonly string[] }
    ? { contentType: string; data: Buffer }
    : undefined;

/** One of the answers the declaration lists, with a body of that answer's schema. */
export type Reply<E extends EndpointSpec> = {
  [S in keyof E["responses"] & number]: {
    status: S;
    body: BodyOf<E["responses"][S]>;
    headers?: Partial<Record<HeaderName, string>>;
  };
}[keyof E["responses"] & number];

export type Handler<E extends EndpointSpec> = (
  input: RequestInput<E>,
  deps: RouteDeps,
) => Promise<Reply<E>>;

/** Any endpoint's input and reply, as the mounting code handles them. */
export interface AnyInput {
  params: unknown;
  query: unknown;
  body: unknown;
  files: Partial<Record<string, Buffer>>;
  auth: AuthContext | undefined;
  baseUrl: string;
  ifNoneMatch: string | undefined;
  idempotency: IdempotentWrite | undefined;
}

export interface AnyReply {
  status: number;
  body: unknown;
  headers?: Partial<Record<HeaderName, string>>;
}

/** A declaration with its handler: what the app mounts. */
export interface Endpoint {
  spec: EndpointSpec;
  handle(input: AnyInput, deps: RouteDeps): Promise<AnyReply>;
  /**
   * For a create: the answer for the object at `location`, as the handler would have given it
   * (a retry's answer when the first request died between its commit and its answer).
   */
  recover?(
    location: string,
    input: Pick<AnyInput, "auth" | "baseUrl">,
    deps: RouteDeps,
  ): Promise<AnyReply>;
}

/** A handler that can also answer for an object created before (see `Endpoint.recover`). */
export interface Recoverable {
  recover: NonNullable<Endpoint["recover"]>;
}

/**
 * A handler that takes something from its declaration (a create's path, and whether it can
 * answer 202): `implement` makes it from the declaration it binds it to, once.
 */
export interface FromSpec<E extends EndpointSpec> {
  fromSpec(spec: E): Handler<E> & Partial<Recoverable>;
}

/** Binds a handler to its declaration; the handler is typed by the declaration alone. */
export function implement<const E extends EndpointSpec>(
  spec: E,
  handler: NoInfer<(Handler<E> & Partial<Recoverable>) | FromSpec<E>>,
): Endpoint {
  const handle = "fromSpec" in handler ? handler.fromSpec(spec) : handler;
  return {
    spec,
    handle: handle as unknown as Endpoint["handle"],
    recover: handle.recover,
  };
}

/** An answer the document describes: its description, body and headers. */
export interface Answer {
  description: string;
  schema?: z.ZodType;
  media?: readonly string[];
  headers: HeaderName[];
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input; details name each field",
  401: "No API key, or an unknown or revoked one",
  403: "The key may not do this (a write with a read-only key; key management without an admin key)",
  404: "No such object (or outside the key's organization)",
  409: "Conflicts with existing data",
  413: "Body or image too large",
  415: "Content type not accepted",
  422: "Well-formed but impossible",
  429: "Rate limit exceeded; see Retry-After",
  500: "Internal error (nothing about it is shown; the request id finds it in the logs)",
  503: "A dependency (database, chain or indexer) is unavailable",
};

/**
 * Every answer the endpoint can give, by status: its own responses and errors, and what the
 * shared middleware adds for the declaration's auth, input, body and idempotency.
 */
export function answersOf(spec: EndpointSpec): Map<number, Answer> {
  const answers = new Map<number, Answer>();
  const everyAnswer: HeaderName[] = ["X-Request-Id", "X-Content-Type-Options"];
  if (spec.auth === "apiKey") everyAnswer.push("RateLimit", "RateLimit-Policy");
  for (const [status, response] of Object.entries(spec.responses)) {
    answers.set(Number(status), {
      description: response.description,
      schema: response.schema,
      media: response.media,
      headers: [...(response.headers ?? [])],
    });
  }
  const errors = new Set<number>(spec.errors ?? []);
  // Any request can carry a malformed path; the framework refuses it.
  errors.add(400);
  if (spec.auth === "apiKey") for (const status of [401, 429, 503]) errors.add(status);
  // A read-only key's writes are refused before any handler runs.
  if (spec.auth === "apiKey" && spec.method !== "get") errors.add(403);
  if (spec.body) for (const status of [413, 415]) errors.add(status);
  if (spec.idempotent) for (const status of [409, 422]) errors.add(status);
  errors.add(500);
  for (const status of [...errors].sort()) {
    if (answers.has(status)) continue;
    answers.set(status, {
      description: ERROR_DESCRIPTIONS[status] ?? "Error",
      headers: [],
    });
  }
  for (const [status, answer] of answers) {
    answer.headers.push(...everyAnswer);
    if (status === 401) answer.headers.push("WWW-Authenticate");
    if (status === 429 || status === 503) answer.headers.push("Retry-After");
    // A replayed answer is any answer but a server error (those are not remembered).
    if (spec.idempotent && status < 500) answer.headers.push("Idempotent-Replayed");
    answer.headers = [...new Set(answer.headers)];
  }
  return answers;
}

/** `/claims/{id}` as Express writes it: `/claims/:id`. */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}
