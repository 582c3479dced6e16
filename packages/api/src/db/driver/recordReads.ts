/**
 * How every table of records is read: one record the scope sees (`findOf`), and pages of a list
 * (`listOf`): the page's ids in (created_at, id) order from an index, then the rows of those ids,
 * each carrying the count of all rows the filters match, read by the same statement (so the count
 * agrees with the rows it stands beside). Reading ids first keeps a deep page to index entries.
 * Where a list keeps counters (`ListCounter`), the count is read from them instead of counting up
 * to every row of the table on each request.
 */

import { createHash } from "node:crypto";
import {
  and,
  asc,
  type Column,
  eq,
  getTableColumns,
  getTableName,
  inArray,
  type Placeholder,
  type SQL,
  sql,
} from "drizzle-orm";
import type { PgColumn, PgSelect, PgTable, SelectedFields } from "drizzle-orm/pg-core";
import type { Scope } from "../../domain/auth.ts";
import { encodeCursor, type ListPosition } from "../../schemas/common.ts";
import { preparedScope } from "../scope.ts";
import { type Queryable, rowsOf } from "./client.ts";
import {
  countedFields,
  type PageFields,
  type PageStatement,
  pageStatement,
  preparedOnce,
  type Shown,
} from "./pageStatements.ts";

/** Where a list's page starts: `page` from 1, or a `cursor` instead (the page starts after it). */
export interface PageRequest {
  /** Absent: the first page (or the page after `cursor`). */
  page?: number;
  limit: number;
  /** Read from `?cursor=`: the page starts after this position, whatever its depth. */
  cursor?: ListPosition;
}

function offsetOf({ page, limit, cursor }: PageRequest): number {
  return cursor ? 0 : ((page ?? 1) - 1) * limit;
}

/** A list request: the page and the query's filters (named as in the query string). */
export type ListQuery = PageRequest & Record<string, unknown>;

export interface Page<Row> {
  rows: Row[];
  count: number;
  /** The cursor of the next page; null when no row follows this page. */
  next: string | null;
}

/** A value of the query's filters: a placeholder in a prepared statement. */
type FilterValue = (name: string) => SQL | Placeholder;

/**
 * Counters a list keeps (triggers update them in the writing transaction): the count of the rows
 * a scope sees under `filters` (a subset of the list's), read from them. Lists filtered by
 * anything else, or by `updated_since`, are counted row by row.
 */
export interface ListCounter {
  filters: string[];
  count(scope: Scope, given: string[], value: FilterValue): SQL;
}

/** A filter of the query string: a column it must equal, or its own condition. */
type Filter = Column | ((value: SQL | Placeholder) => SQL);

type ListedTable = PgTable & { id: PgColumn; createdAt: PgColumn; updatedAt: PgColumn };

/**
 * A page that reads more than the table's row: `join` adds tables to the page query, and
 * `fields` is all it selects, the table itself under one of its keys (that row's position is
 * the next cursor).
 */
export interface PageJoin {
  fields: PageFields;
  join(query: PgSelect): PgSelect;
}

const p = (name: string) => sql.placeholder(name);

/**
 * The list of `table`: rows the scope sees (`visible`), narrowed by the query's `filters`. The
 * page's rows are the table's (as shown: `pageStatements.ts`), or what `pageJoin` reads.
 *
 * A page's query is built and prepared once per shape (which filters, a cursor or not, scoped or
 * not, how many rows) and database, then only run with its values: building it, and PostgreSQL
 * planning it, cost more than reading the hundred rows did.
 */
export function listOf<T extends ListedTable, Row = Shown<T["$inferSelect"]>>(
  table: T,
  visible: (scope: Scope) => SQL | undefined,
  filters: Record<string, Filter>,
  pageJoin?: PageJoin,
  counter?: ListCounter,
) {
  const order = [asc(table.createdAt), asc(table.id)];
  const tableName = getTableName(table);
  const fields = pageJoin?.fields ?? getTableColumns(table);
  const rowKey = pageJoin && Object.keys(fields).find((key) => fields[key] === table);
  if (pageJoin && !rowKey) throw new Error(`a page of ${tableName} must select the table`);
  const positionOf = (row: Row) =>
    (rowKey ? (row as Record<string, unknown>)[rowKey] : row) as ListPosition;
  /** The page query of one shape, its values as placeholders named after the query's fields. */
  const prepare = (q: Queryable, shape: ListShape, name: string): PageStatement<Row> => {
    const scope = preparedScope(shape.scoped);
    const ids = q
      .select({ id: table.id })
      .from(table as PgTable)
      .where(
        and(
          conditions(shape, scope, p),
          // A cursor is a keyset position: the index walks from there, as cheap at any depth.
          shape.cursor
            ? sql`(${table.createdAt}, ${table.id}) > (${p("after_at")}::timestamptz, ${p("after_id")}::uuid)`
            : undefined,
        ),
      )
      .orderBy(...order)
      .limit(written(shape.size))
      .offset(shape.offset ? p("offset") : 0);
    const from = q
      .select(countedFields(fields, countOf(shape, scope, p)) as SelectedFields)
      .from(table as PgTable)
      .$dynamic();
    const rows = (pageJoin ? pageJoin.join(from) : from)
      .where(inArray(table.id, ids))
      .orderBy(...order);
    // A page by offset is planned for its offset on every run: the one plan PostgreSQL keeps for
    // every offset after five runs read page 1,000 of 100,000 claims in 9 s, not 3 (measured on
    // the embedded engine of an earlier release; PostgreSQL plans the same way).
    return pageStatement(q, shape.offset ? null : name, rows, fields);
  };

  return async (q: Queryable, scope: Scope, query: ListQuery): Promise<Page<Row>> => {
    const { page: _page, limit: _limit, cursor, ...given } = query;
    const offset = offsetOf(query);
    const shape: ListShape = {
      scoped: scope.organizationId !== null,
      filters: Object.keys(filters).filter((name) => given[name] !== undefined),
      since: typeof given.updated_since === "string",
      cursor: cursor !== undefined,
      size: PREPARED_SIZES.find((size) => size > query.limit) ?? query.limit + 1,
      offset: offset > 0,
    };
    const shapeHash = createHash("sha1").update(JSON.stringify(shape)).digest("hex").slice(0, 16);
    const statement = preparedOnce(q, `list_${tableName}_${shapeHash}`, (name) =>
      prepare(q, shape, name),
    );
    const { rows: read, count: counted } = await statement.executeCounted(
      {
        ...Object.fromEntries(shape.filters.map((name) => [name, given[name]])),
        scope: scope.organizationId,
        updated_since: given.updated_since,
        after_at: cursor?.createdAt,
        after_id: cursor?.id,
        offset,
      },
      query.limit + 1,
    );
    // The row after the page, read with it, says whether another page follows.
    const rows = read.slice(0, query.limit);
    const last = rows.at(-1);
    const next = last && read.length > query.limit ? encodeCursor(positionOf(last)) : null;
    // A page past the end carries no count: it is read alone, a moment later.
    const count =
      counted ??
      (await countAlone(
        q,
        countOf(shape, scope, (name) => sql`${given[name]}`),
      ));
    return { rows, count, next };
  };

  /**
   * The count of the rows the shape matches: from the list's counters when they cover its
   * filters, else row by row.
   */
  function countOf(shape: ListShape, scope: Scope, value: FilterValue): SQL<number> {
    const everyRow = sql`select count(*) from ${table} where ${conditions(shape, scope, value)}`;
    if (!counter || !shape.filters.every((name) => counter.filters.includes(name))) {
      return sql<number>`(${everyRow})::int`;
    }
    const counted = counter.count(scope, shape.filters, value);
    if (!shape.since) return sql<number>`(${counted})::int`;
    // A time no earlier than any row's last change leaves every row in (a client's first sync):
    // the counters still count. A later one counts what changed since, from the index on
    // updated_at. PostgreSQL runs only the branch taken.
    return sql<number>`(case when ${value("updated_since")}::timestamptz <= (select min(${table.updatedAt}) from ${table})
      then (${counted}) else (${everyRow}) end)::int`;
  }

  /**
   * What rows of this shape the scope sees, each value given by `value`: a placeholder in the
   * prepared page query, the value itself in the (remembered) count.
   */
  function conditions(shape: ListShape, scope: Scope, value: (name: string) => SQL | Placeholder) {
    return and(
      visible(scope),
      ...shape.filters.map((name) => {
        const filter = filters[name] as Filter;
        return typeof filter === "function" ? filter(value(name)) : eq(filter, value(name));
      }),
      // Every paged list: what changed since a time, for clients that sync by polling.
      shape.since ? sql`${table.updatedAt} >= ${value("updated_since")}::timestamptz` : undefined,
    );
  }
}

async function countAlone(q: Queryable, count: SQL<number>): Promise<number> {
  const [row] = rowsOf<{ count: number }>(await q.execute(sql`select ${count} as count`));
  return Number(row?.count ?? 0);
}

/** What decides a page query's text: the values it runs with do not. */
interface ListShape {
  scoped: boolean;
  filters: string[];
  since: boolean;
  cursor: boolean;
  /** How many rows the query reads, written into its text (`PREPARED_SIZES`). */
  size: number;
  /** Whether the page starts past the first row (by `page`): the offset is then a value. */
  offset: boolean;
}

/**
 * The rows a query is prepared to read: a page of up to 20, 50 or 100 and the row after it, which
 * says whether another page follows. A request reads the smallest that holds one more row than
 * its limit and keeps the limit's rows. The size is written into the query's text, as is a zero offset,
 * because PostgreSQL cannot plan `limit $1` once for every size: it planned each run again,
 * 0.37 of the 0.65 ms of its CPU a page of 100 claims cost; with the size written, a connection
 * plans the statement once (0.28 ms a page). Each size is one more plan per shape on every
 * connection (about 120 KiB each), so there are few.
 */
const PREPARED_SIZES = [21, 51, 101];

/**
 * A number written into the query's text rather than sent as a value. Drizzle's `limit` takes a
 * number (sent as a value) or a placeholder; SQL in its place is written as it is.
 */
const written = (count: number) => sql.raw(String(Math.trunc(count))) as unknown as number;

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
