/**
 * The handlers of the conventional endpoints (`http/resourceEndpoints.ts`): each takes the
 * validated input, calls the one service function it is given, and presents what it returns.
 */

import type { ListQuery, Page, PageRequest } from "../db/driver/recordReads.ts";
import type { IdempotentWrite } from "../db/idempotencyKeys.ts";
import type { RouteDeps } from "../deps.ts";
import type { AuthContext, Scope } from "../domain/auth.ts";
import type { EndpointSpec } from "../http/endpoint.ts";
import { type PresentContext, presentContext } from "../presenters/fields.ts";

type Present<View, Item> = (view: View, ctx: PresentContext) => Item;
type Files = Partial<Record<string, Buffer>>;
type Answers = EndpointSpec["responses"];

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
  return async ({ query, auth, baseUrl }: Input & { query: ListQuery }, deps: RouteDeps) =>
    deps.listReads.run(async () => {
      const ctx = presentContext(deps, baseUrl);
      const { rows, count, next } = await list(deps, auth, query);
      const data = rows.map((view) => present(view, ctx));
      const body = { pagination: paginationOf(query, count, next), data };
      return { status: 200 as const, body };
    });
}

/**
 * A list answer's `pagination`: `page` from 1 (null for a page asked by cursor), `size` is the
 * page size (limit), and `next_cursor` the position after the page's last row when more may follow.
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
