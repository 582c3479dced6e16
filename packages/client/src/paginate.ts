/**
 * Every item of a list, page after page: each list answers `pagination.next_cursor` (null on the
 * last page) and takes it back as `?cursor=`, which neither skips nor repeats a row while rows are
 * added, and costs the same at any depth (unlike `?page=`).
 */

import { type FetchResult, unwrap } from "./CollectiblesApiError.ts";
import type { CollectiblesClient } from "./createCollectiblesClient.ts";
import type { paths } from "./schema.ts";

/** The shape of every list answer. */
export interface ListPage<T> {
  pagination: { next_cursor: string | null };
  data: T[];
}

/**
 * Yields every item of the pages `fetchPage` answers, asking for the next with the previous
 * page's `next_cursor` (undefined for the first) until it is null. A page that fails throws
 * `CollectiblesApiError`.
 *
 * ```ts
 * for await (const claim of paginate((cursor) =>
 *   api.GET("/claims", { params: { query: { collectible_id, cursor, limit: 100 } } }),
 * )) { ... }
 * ```
 */
export async function* paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<FetchResult & { data?: ListPage<T> }>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await unwrap(fetchPage(cursor));
    yield* page.data;
    cursor = page.pagination.next_cursor ?? undefined;
  } while (cursor !== undefined);
}

type JsonOk<Operation> = Operation extends {
  responses: { 200: { content: { "application/json": infer Body } } };
}
  ? Body
  : never;

/**
 * The paths whose GET answers a paginated list (`/organizations`, `/claims`, ...). A path whose
 * GET answers nothing (`never`, which extends anything) is not one.
 */
export type ListPath = {
  [P in keyof paths]: [JsonOk<paths[P]["get"]>] extends [never]
    ? never
    : JsonOk<paths[P]["get"]> extends ListPage<unknown>
      ? P
      : never;
}[keyof paths];

/** The item a list path answers (`/claims` → a Claim). */
export type ListItem<P extends ListPath> = JsonOk<paths[P]["get"]>["data"][number];

/** The filters a list path takes; the cursor and page are the iterator's. */
export type ListQuery<P extends ListPath> = Omit<
  NonNullable<NonNullable<paths[P]["get"]>["parameters"]["query"]>,
  "cursor" | "page"
>;

/**
 * `paginate` for one list path and its filters:
 * `for await (const user of listAll(api, "/users", { organization_id })) { ... }`.
 */
export function listAll<P extends ListPath>(
  client: CollectiblesClient,
  path: P,
  query?: ListQuery<P>,
): AsyncGenerator<ListItem<P>, void, undefined> {
  // openapi-fetch cannot check a path chosen by a generic parameter against its own overloads;
  // ListPath and ListQuery above give callers the same checks.
  const get = client.GET as unknown as (
    path: string,
    init: { params: { query: Record<string, unknown> } },
  ) => Promise<FetchResult & { data?: ListPage<ListItem<P>> }>;
  return paginate((cursor) => get(path, { params: { query: { ...query, cursor } } }));
}
