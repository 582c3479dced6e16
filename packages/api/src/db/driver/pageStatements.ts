/**
 * A list page's rows, read in the form they are shown: the query runs as a named prepared
 * statement (a page by offset is planned each run) answering arrays, each row is built
 * by a plan made once per query, and `created_at` and `updated_at` stay the text the API answers
 * (ISO 8601) instead of becoming a Date that is formatted again. Drizzle's generic row mapping
 * and the Dates took a sixth of the API's CPU serving GET /claims (`pnpm bench lists --profile`).
 * Hot statements, pages and others, are prepared once per database handle (`preparedOnce`).
 */
import {
  Column,
  fillPlaceholders,
  getTableColumns,
  is,
  type Query,
  type SQL,
  Table,
} from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import pg from "pg";

import { driverClientOf, type Queryable } from "./client.ts";

/** A row with its `created_at` and `updated_at` as shown: ISO 8601 text, UTC, milliseconds. */
export type Shown<Row> = Omit<Row, "createdAt" | "updatedAt"> & {
  createdAt: string;
  updatedAt: string;
};

/** A row as read by a page (`Shown`) or by any other query (Dates): presenters take both. */
export type Presentable<Row> = Omit<Row, "createdAt" | "updatedAt"> & {
  createdAt: Date | string;
  updatedAt: Date | string;
};

/**
 * What a page selects: columns, whole tables, or a level of columns, by the field they fill. No
 * raw SQL: each value is decoded by its column (a `sql` field's `mapWith` would be lost).
 */
export type PageFields = Record<string, PgColumn | PgTable | Record<string, PgColumn>>;

/** One value of a row: where it goes and how the database's value becomes the row's. */
interface Leaf {
  object: string | null;
  key: string;
  decode: (value: unknown) => unknown;
}

/** The prepared page query: run with its values by name, it answers the page's rows. */
export interface PageStatement<Row> {
  /** The first `keep` rows the query reads (all when omitted). */
  execute(values: Record<string, unknown>, keep?: number): Promise<Row[]>;
  /** The same, and the count the query selects after the fields (see `countedFields`). */
  executeCounted(
    values: Record<string, unknown>,
    keep?: number,
  ): Promise<{ rows: Row[]; count: number | undefined }>;
}

/** `fields` and then `count`, for a page query whose every row also carries the list's count. */
export function countedFields(fields: PageFields, count: SQL<number>) {
  // Selected last, after every leaf of `fields`; the key names no column of any table.
  return { ...fields, __count: count };
}

/**
 * The statement `name` running `query` (a Drizzle select of `fields`, not yet run; or of
 * `countedFields(fields, count)`) on the database `q`, which must not be a transaction: a page
 * reads outside one. Without a name, the query is planned for its values on every run.
 */
export function pageStatement<Row>(
  q: Queryable,
  name: string | null,
  query: { toSQL(): Query },
  fields: PageFields,
): PageStatement<Row> {
  const { sql: text, params } = query.toSQL();
  const leaves = leavesOf(fields);
  const run = arrayRunner(q);
  const read = async (values: Record<string, unknown>, keep?: number) => {
    const rows = await run(name, text, fillPlaceholders(params, values));
    return keep !== undefined && rows.length > keep ? rows.slice(0, keep) : rows;
  };
  return {
    async execute(values, keep) {
      return (await read(values, keep)).map((values) => rowOf(leaves, values) as Row);
    },
    async executeCounted(values, keep) {
      const arrays = await read(values, keep);
      // The count is the value after the fields', the same in every row.
      const count = arrays[0]?.[leaves.length];
      return {
        rows: arrays.map((values) => rowOf(leaves, values) as Row),
        count: count === undefined ? undefined : Number(count),
      };
    },
  };
}

function rowOf(leaves: Leaf[], values: unknown[]): Record<string, unknown> {
  const row: Record<string, Record<string, unknown> | unknown> = {};
  for (let index = 0; index < leaves.length; index++) {
    const { object, key, decode } = leaves[index] as Leaf;
    const raw = values[index];
    const value = raw === null || raw === undefined ? null : decode(raw);
    if (object === null) row[key] = value;
    else {
      const inner = (row[object] ?? {}) as Record<string, unknown>;
      inner[key] = value;
      row[object] = inner;
    }
  }
  return row;
}

/** The selected values in the order Drizzle writes them into the query (the fields' order). */
function leavesOf(fields: PageFields): Leaf[] {
  const leaves: Leaf[] = [];
  for (const [key, field] of Object.entries(fields)) {
    if (is(field, Column)) {
      leaves.push({ object: null, key, decode: decoderOf(field) });
      continue;
    }
    const nested: Record<string, Column> = is(field, Table) ? getTableColumns(field) : field;
    for (const [inner, column] of Object.entries(nested)) {
      leaves.push({ object: key, key: inner, decode: decoderOf(column) });
    }
  }
  return leaves;
}

const SHOWN_AS_TEXT = new Set(["created_at", "updated_at"]);

function decoderOf(column: Column): (value: unknown) => unknown {
  if (SHOWN_AS_TEXT.has(column.name)) return (value) => isoTime(value as string);
  return (value) => column.mapFromDriverValue(value);
}

/**
 * PostgreSQL's text of a UTC timestamp (`2026-11-26 00:26:04.12+00`; the API's columns keep
 * milliseconds) as ISO 8601 (`2026-11-26T00:26:04.120Z`), what `Date#toISOString` answers.
 */
const UTC_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,3}))?\+00$/;

export function isoTime(text: string): string {
  const match = UTC_TIMESTAMP.exec(text);
  // Another session time zone, or a year past 9999: the Date's reading is right, only slower.
  if (!match) return new Date(text).toISOString();
  return `${match[1]}T${match[2]}.${(match[3] ?? "").padEnd(3, "0")}Z`;
}

type ArrayRunner = (name: string | null, text: string, values: unknown[]) => Promise<unknown[][]>;

const asText = (value: unknown) => value;

/** Timestamps as the database's text, every other type parsed as the driver does. */
const nodePgTypes = {
  getTypeParser: (typeId: number, format?: "text" | "binary") =>
    typeId === pg.types.builtins.TIMESTAMPTZ ? asText : pg.types.getTypeParser(typeId, format),
};

export function arrayRunner(q: Queryable): ArrayRunner {
  const client = driverClientOf(q);
  if (client instanceof pg.Pool) {
    return async (name, text, values) => {
      const query = { text, values, rowMode: "array" as const, types: nodePgTypes };
      return (await client.query(name ? { ...query, name } : query)).rows;
    };
  }
  throw new Error("a list page is read on the database, not in a transaction");
}

/**
 * Statements prepared once per database handle and kept by their name: a hot query is then
 * built (by Drizzle) and planned (by PostgreSQL, per connection) once, and afterwards only run
 * with its values. The name is also the prepared statement's name on PostgreSQL (unless the
 * statement is built without one), so one name must always stand for one query text.
 */
const prepared = new WeakMap<Queryable, Map<string, unknown>>();

/** The statement `name` on `q`, built by `prepare(name)` the first time it is asked for. */
export function preparedOnce<Statement>(
  q: Queryable,
  name: string,
  prepare: (name: string) => Statement,
): Statement {
  const byName = prepared.get(q) ?? new Map<string, unknown>();
  prepared.set(q, byName);
  if (!byName.has(name)) byName.set(name, prepare(name));
  return byName.get(name) as Statement;
}
