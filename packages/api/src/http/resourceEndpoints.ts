/**
 * The conventional endpoints of a resource (list, get, create, update, delete), each still one
 * declaration, written with only what differs: the conventions (operation id, method, path, key,
 * id parameter, envelopes, answers) are filled in here once instead of in every route file.
 *
 * And their handlers (`listing`, `reading`, `creating`, `updating`, `deleting`): each takes the
 * validated input, calls the one service function it is given, and presents what it returns.
 */
import type { z } from "zod";
import type { ListQuery, Page, PageRequest } from "../db/driver/recordReads.ts";
import type { IdempotentWrite } from "../db/idempotencyKeys.ts";
import type { RouteDeps } from "../deps.ts";
import type { AuthContext, Scope } from "../domain/auth.ts";
import { type PresentContext, presentContext } from "../presenters/resources.ts";
import { DeletedResponse, dataEnvelope, IdParams, listEnvelope } from "../schemas/common.ts";
import { type BodySpec, defineEndpoint, type EndpointSpec } from "./endpoint.ts";

type Answers = EndpointSpec["responses"];

/** A JSON body of at most MAX_JSON_BYTES: what most writes take. */
export const JSON_BODY = {
  contentTypes: ["application/json"],
  maxBytes: (config) => config.MAX_JSON_BYTES,
} as const satisfies Omit<BodySpec, "schema">;

interface WriteOptions<B extends BodySpec> {
  summary: string;
  description?: string;
  body: B;
  errors: readonly number[];
}

/**
 * `Singular` and `Plural` name the operations (`getUser`, `listUsers`); `Plural` is also the
 * tag, and in lower case the path (`/users`).
 */
export function resourceEndpoints<const S extends z.ZodType>(
  Singular: string,
  Plural: string,
  schema: S,
) {
  const plural = Plural.toLowerCase();
  const tag = Plural;
  const collection = `/${plural}` as const;
  const item = `/${plural}/{id}` as const;
  const Envelope = dataEnvelope(schema);
  const base = { tag, auth: "apiKey" } as const;
  return {
    list: <const Q extends z.ZodObject>(query: Q, summary: string) =>
      defineEndpoint({
        ...base,
        operationId: `list${Plural}`,
        method: "get",
        path: collection,
        summary,
        query,
        responses: {
          200: { description: `A page of ${plural}, oldest first`, schema: listEnvelope(schema) },
        },
      }),

    get: (summary: string) =>
      defineEndpoint({
        ...base,
        operationId: `get${Singular}`,
        method: "get",
        path: item,
        summary,
        params: IdParams,
        responses: { 200: { description: "Found", schema: Envelope } },
        errors: [404],
      }),

    /** What a create answers: 201 with the object and its Location. */
    created: {
      201: { description: "Created", schema: Envelope, headers: ["Location"] },
    } as const satisfies Answers,
    /** What a create made final on-chain answers: 201 once confirmed, 202 while still pending. */
    createdOnChain: {
      201: { description: "Confirmed on-chain", schema: Envelope, headers: ["Location"] },
      202: { description: "Accepted, still pending", schema: Envelope, headers: ["Location"] },
    } as const satisfies Answers,

    create: <const B extends BodySpec, const R extends Answers>(
      options: WriteOptions<B> & { responses: R },
    ) =>
      defineEndpoint({
        ...base,
        ...options,
        operationId: `create${Singular}`,
        method: "post",
        path: collection,
        idempotent: true,
      }),

    update: <const B extends BodySpec>(options: WriteOptions<B>) =>
      defineEndpoint({
        ...base,
        ...options,
        operationId: `update${Singular}`,
        method: "patch",
        path: item,
        params: IdParams,
        responses: { 200: { description: "Updated", schema: Envelope } },
      }),

    remove: (summary: string, errors: readonly number[]) =>
      defineEndpoint({
        ...base,
        operationId: `delete${Singular}`,
        method: "delete",
        path: item,
        summary,
        params: IdParams,
        responses: { 200: { description: "Deactivated", schema: DeletedResponse } },
        errors,
      }),
  };
}

// The handlers.

type Present<View, Item> = (view: View, ctx: PresentContext) => Item;
type Files = Partial<Record<string, Buffer>>;

interface Input {
  auth: AuthContext;
  baseUrl: string;
  files: Files;
}

/** A list endpoint's handler: a page of the list, presented, with its pagination. */
export function listing<View, Item>(
  list: (deps: RouteDeps, scope: Scope, query: ListQuery) => Promise<Page<View>>,
  present: Present<View, Item>,
) {
  return async ({ query, auth, baseUrl }: Input & { query: ListQuery }, deps: RouteDeps) => {
    const { rows, count, next } = await list(deps, auth, query);
    const ctx = presentContext(deps, baseUrl);
    const data = rows.map((view) => present(view, ctx));
    const body = { pagination: paginationOf(query, count, next), data };
    return { status: 200 as const, body };
  };
}

/**
 * A list answer's `pagination`: `page` from 1 (null for a page asked by cursor), `size` is the
 * page size (limit), and `next_cursor` the position after the page's last row when a row follows.
 */
function paginationOf({ page, limit, cursor }: PageRequest, count: number, next: string | null) {
  return {
    page: cursor ? null : (page ?? 1),
    size: limit,
    pages: Math.ceil(count / limit),
    count,
    next_cursor: next,
  };
}

type Read<View> = (deps: RouteDeps, scope: Scope, id: string) => Promise<View>;

export function reading<View, Item>(get: Read<View>, present: Present<View, Item>) {
  return async ({ params, auth, baseUrl }: Input & { params: { id: string } }, deps: RouteDeps) => {
    const view = await get(deps, auth, params.id);
    return { status: 200 as const, body: { data: present(view, presentContext(deps, baseUrl)) } };
  };
}

export function updating<Body, View, Item>(
  update: (deps: RouteDeps, scope: Scope, id: string, body: Body, files: Files) => Promise<View>,
  present: Present<View, Item>,
) {
  return async (input: Input & { params: { id: string }; body: Body }, deps: RouteDeps) => {
    const view = await update(deps, input.auth, input.params.id, input.body, input.files);
    return {
      status: 200 as const,
      body: { data: present(view, presentContext(deps, input.baseUrl)) },
    };
  };
}

export function deleting(remove: (deps: RouteDeps, scope: Scope, id: string) => Promise<void>) {
  return async ({ params, auth }: Input & { params: { id: string } }, deps: RouteDeps) => {
    await remove(deps, auth, params.id);
    return { status: 200 as const, body: { data: { id: params.id, deleted: true as const } } };
  };
}

/** What every view carries: its row, whose id names it and whose status says if it is final. */
interface Made {
  row: { id: string; status?: string };
}

type Create<Body, View> = (
  deps: RouteDeps,
  scope: Scope,
  body: Body,
  files: Files,
  idempotency: IdempotentWrite | undefined,
) => Promise<View>;

/** A create answers 201, and 202 as well when its declaration lists one. */
type CreatedStatus<A extends Answers> = 202 extends keyof A ? 201 | 202 : 201;

/**
 * 201 with the object and its Location (under the declaration's path); when the declaration
 * lists a 202 (an object made final on-chain), 202 with the pending object while the chain does
 * not have it yet. It can also answer for an object created before (a retry whose first request
 * died after its commit), as the create would have: through `settle` (which waits for the chain)
 * when the service has one. `implement` makes it from the declaration it binds it to.
 */
export function creating<Body, View extends Made, Item>(
  service: { create: Create<Body, View>; get: Read<View>; settle?: Read<View> },
  present: Present<View, Item>,
) {
  const fromSpec = <A extends Answers>({ path, responses }: { path: string; responses: A }) => {
    const mayPend = 202 in responses;
    const answer = (view: View, baseUrl: string, deps: RouteDeps) => {
      const pending = mayPend && view.row.status === "pending";
      const status = (pending ? 202 : 201) as CreatedStatus<A>;
      const data = present(view, presentContext(deps, baseUrl));
      return { status, body: { data }, headers: { Location: `${path}/${view.row.id}` } };
    };
    const handle = async (
      input: Input & { body: Body; idempotency?: IdempotentWrite },
      deps: RouteDeps,
    ) => {
      const { auth, body, files, idempotency, baseUrl } = input;
      return answer(await service.create(deps, auth, body, files, idempotency), baseUrl, deps);
    };
    return Object.assign(handle, {
      async recover(
        location: string,
        input: { auth?: AuthContext; baseUrl: string },
        deps: RouteDeps,
      ) {
        const id = location.slice(location.lastIndexOf("/") + 1);
        if (!input.auth) throw new Error("a create is answered for a key");
        const read = service.settle ?? service.get;
        return answer(await read(deps, input.auth, id), input.baseUrl, deps);
      },
    });
  };
  return { fromSpec };
}
