/**
 * How every table of records is read: one record the scope sees (`findOf`), and pages of a list
 * (`listOf`): the count of all rows the filters match (remembered between requests, see
 * `listCounts.ts`), the page's ids in (created_at, id) order from an index, then the rows of those
 * ids. Reading ids first keeps a deep page to index entries; the rows are read for one page.
 */
import { and, asc, type Column, eq, getTableName, gte, inArray, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { encodeCursor, type ListPosition } from "../lib/cursor.ts";
import type { Queryable } from "./client.ts";
import { countRows, type ListCounts, listKey } from "./listCounts.ts";
import { offsetOf, type PageRequest } from "./pagination.ts";
import type { Scope } from "./scope.ts";

/** A list request: the page and the query's filters (named as in the query string). */
export type ListQuery = PageRequest & Record<string, unknown>;

export interface Page<Row> {
  rows: Row[];
  count: number;
  /** The cursor of the next page, when this one is full (more may follow). */
  next: string | null;
}

/** A filter of the query string: a column it must equal, or its own condition. */
type Filter = Column | ((value: string) => SQL);

type ListedTable = PgTable & { id: PgColumn; createdAt: PgColumn; updatedAt: PgColumn };

/**
 * The list of `table`: rows the scope sees (`visible`), narrowed by the query's `filters`. The
 * page's rows are the table's, unless `rowsOf` reads them otherwise (a join; `positionOf` then
 * finds the table's row in one, for the next cursor).
 */
export function listOf<T extends ListedTable, Row = T["$inferSelect"]>(
  table: T,
  visible: (scope: Scope) => SQL | undefined,
  filters: Record<string, Filter>,
  rowsOf?: (q: Queryable, ids: SQL) => Promise<Row[]>,
  positionOf: (row: Row) => ListPosition = (row) => row as ListPosition,
) {
  const order = [asc(table.createdAt), asc(table.id)];
  const readRows =
    rowsOf ??
    ((q: Queryable, ids: SQL) =>
      q
        .select()
        .from(table as PgTable)
        .where(ids)
        .orderBy(...order) as Promise<Row[]>);
  return async (
    q: Queryable,
    scope: Scope,
    query: ListQuery,
    counts: ListCounts,
  ): Promise<Page<Row>> => {
    const { page: _page, limit: _limit, cursor, ...given } = query;
    const conditions = Object.entries(filters).flatMap(([name, filter]) => {
      const value = given[name];
      if (value === undefined) return [];
      return [typeof filter === "function" ? filter(value as string) : eq(filter, value)];
    });
    // Every list: what changed since a time, for clients that sync by polling.
    if (typeof given.updated_since === "string") {
      conditions.push(gte(table.updatedAt, new Date(given.updated_since)));
    }
    const where = and(visible(scope), ...conditions);
    const key = listKey(getTableName(table), scope, given);
    const count = await counts.get(key, () => countRows(q, table, where));
    // A cursor is a keyset position: the index walks from there, as cheap at any depth.
    const after = cursor
      ? sql`(${table.createdAt}, ${table.id}) > (${cursor.createdAt.toISOString()}::timestamptz, ${cursor.id}::uuid)`
      : undefined;
    const ids = q
      .select({ id: table.id })
      .from(table as PgTable)
      .where(and(where, after))
      .orderBy(...order)
      .limit(query.limit)
      .offset(offsetOf(query));
    const rows = await readRows(q, inArray(table.id, ids));
    const last = rows.at(-1);
    const next = last && rows.length === query.limit ? encodeCursor(positionOf(last)) : null;
    return { rows, count, next };
  };
}

/** The record `id` of `table` if the scope sees it; `lock` takes a row lock (in a transaction). */
export function findOf<T extends ListedTable>(
  table: T,
  visible: (scope: Scope) => SQL | undefined,
) {
  return async (
    q: Queryable,
    id: string,
    scope: Scope,
    lock?: "share" | "update",
  ): Promise<T["$inferSelect"] | undefined> => {
    const query = q
      .select()
      .from(table as PgTable)
      .where(and(eq(table.id, id), visible(scope)));
    const [row] = (lock ? await query.for(lock) : await query) as T["$inferSelect"][];
    return row;
  };
}
