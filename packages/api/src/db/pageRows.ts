/**
 * A list page's rows, read in the form they are shown: the query runs as a named prepared
 * statement (on PostgreSQL and on PGlite) answering arrays, each row is built
 * by a plan made once per query, and `created_at` and `updated_at` stay the text the API answers
 * (ISO 8601) instead of becoming a Date that is formatted again. Drizzle's generic row mapping
 * and the Dates took a sixth of the API's CPU serving GET /claims (`pnpm bench lists --profile`).
 */
import {
  type ExecProtocolResult,
  PGlite,
  parse,
  types as pgliteTypes,
  protocol,
} from "@electric-sql/pglite";
import { Column, fillPlaceholders, getTableColumns, is, type Query, Table } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Queryable } from "./client.ts";

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
  execute(values: Record<string, unknown>): Promise<Row[]>;
}

/**
 * The statement `name` running `query` (a Drizzle select of `fields`, not yet run) on the
 * database `q`, which must not be a transaction: a page reads outside one.
 */
export function pageStatement<Row>(
  q: Queryable,
  name: string,
  query: { toSQL(): Query },
  fields: PageFields,
): PageStatement<Row> {
  const { sql: text, params } = query.toSQL();
  const leaves = leavesOf(fields);
  const run = arrayRunner(q);
  return {
    async execute(values) {
      const rows = await run(name, text, fillPlaceholders(params, values));
      return rows.map((values) => rowOf(leaves, values) as Row);
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

type ArrayRunner = (name: string, text: string, values: unknown[]) => Promise<unknown[][]>;

const asText = (value: unknown) => value;

/** Timestamps as the database's text, every other type parsed as the driver does. */
const nodePgTypes = {
  getTypeParser: (typeId: number, format?: "text" | "binary") =>
    typeId === pg.types.builtins.TIMESTAMPTZ ? asText : pg.types.getTypeParser(typeId, format),
};

function arrayRunner(q: Queryable): ArrayRunner {
  const client = (q as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    return async (name, text, values) =>
      (await client.query({ name, text, values, rowMode: "array", types: nodePgTypes })).rows;
  }
  if (client instanceof PGlite) return pgliteRunner(client);
  throw new Error("a list page is read on the database, not in a transaction");
}

/**
 * On PGlite a page's statement is prepared once by name, then only bound and run, through the
 * wire protocol as PostgreSQL's driver does: PGlite's `query()` parses and plans every statement
 * again, 0.6 of the 2.5 ms of CPU a page of 100 claims took (on disk, measured back to back).
 */
function pgliteRunner(client: PGlite): ArrayRunner {
  const prepared = new Set<string>();
  const send = async (message: Uint8Array) =>
    (await client.execProtocol(message, { syncToFs: false })).messages;
  const options = { rowMode: "array" as const, parsers: { [pgliteTypes.TIMESTAMPTZ]: asText } };
  const { serialize } = protocol;
  return (name, text, values) =>
    // As `query()` runs: after any transaction in progress, and alone.
    client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        const messages: ExecProtocolResult["messages"] = [];
        try {
          if (!prepared.has(name)) {
            messages.push(...(await send(serialize.parse({ name, text, types: [] }))));
            prepared.add(name);
          }
          const bind = serialize.bind({ statement: name, values: values.map(asParameter) });
          messages.push(...(await send(bind)));
          messages.push(...(await send(serialize.describe({ type: "P" }))));
          messages.push(...(await send(serialize.execute({}))));
        } finally {
          // Also after an error: it ends the statement, and the next one starts clean.
          messages.push(...(await send(serialize.sync())));
        }
        return (parse.parseResults(messages, client.parsers, options)[0]?.rows ??
          []) as unknown[][];
      }),
    );
}

/** A value as the text PostgreSQL reads for any parameter type a page uses. */
function asParameter(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}
