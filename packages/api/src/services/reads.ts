/**
 * The reads organizations, users and collectibles answer the same way: a page of the list and
 * one record by id (404 when the key may not see it), each row turned into what is presented
 * (`enrich`). Claims list and get with functions of their own (services/claims/claims.ts), so a
 * reader goes from the route straight to the claims' query; they share `viewOf`.
 */

import type { Queryable } from "../db/driver/client.ts";
import type { ListQuery, Page } from "../db/driver/recordReads.ts";
import type { RouteDeps } from "../deps.ts";
import type { Scope } from "../domain/auth.ts";
import { notFound } from "../errorCatalogue.ts";

type Kind = Parameters<typeof notFound>[0];

export function reads<Row, View>(
  kind: Kind,
  db: {
    list(q: Queryable, scope: Scope, query: ListQuery): Promise<Page<Row>>;
    find(q: Queryable, id: string, scope: Scope): Promise<Row | undefined>;
  },
  enrich: (deps: RouteDeps, rows: Row[]) => Promise<View[]>,
) {
  return {
    async list(deps: RouteDeps, scope: Scope, query: ListQuery): Promise<Page<View>> {
      const page = await db.list(deps.db, scope, query);
      return { ...page, rows: await enrich(deps, page.rows) };
    },
    async get(deps: RouteDeps, scope: Scope, id: string): Promise<View> {
      const row = await db.find(deps.db, id, scope);
      if (!row) throw notFound(kind, id);
      return viewOf(deps, row, enrich);
    },
  };
}

/** One row, enriched. */
export async function viewOf<Row, View>(
  deps: RouteDeps,
  row: Row,
  enrich: (deps: RouteDeps, rows: Row[]) => Promise<View[]>,
): Promise<View> {
  const [view] = await enrich(deps, [row]);
  if (view === undefined) throw new Error("enriching a row answered nothing");
  return view;
}
