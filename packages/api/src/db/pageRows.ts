/**
 * A list page's rows, read in the form they are shown: the query runs as a named prepared
 * statement (on PostgreSQL and on PGlite; a page by offset is planned each run) answering arrays, each row is built
 * by a plan made once per query, and `created_at` and `updated_at` stay the text the API answers
 * (ISO 8601) instead of becoming a Date that is formatted again. Drizzle's generic row mapping
 * and the Dates took a sixth of the API's CPU serving GET /claims (`pnpm bench lists --profile`).
 */
import {
  type messages as backendMessages,
  PGlite,
  parse,
  types as pgliteTypes,
  protocol,
} from "@electric-sql/pglite";
import { Column, fillPlaceholders, getTableColumns, is, type Query, Table } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import pg from "pg";

type BackendMessage = backendMessages.BackendMessage;

import { driverClientOf, type Queryable } from "./client.ts";
import { CountingPGlite } from "./countingPglite.ts";

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
}

/**
 * The statement `name` running `query` (a Drizzle select of `fields`, not yet run) on the
 * database `q`, which must not be a transaction: a page reads outside one. Without a name, the
 * query is planned for its values on every run.
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
  return {
    async execute(values, keep) {
      const rows = await run(name, text, fillPlaceholders(params, values));
      const kept = keep !== undefined && rows.length > keep ? rows.slice(0, keep) : rows;
      return kept.map((values) => rowOf(leaves, values) as Row);
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
  if (client instanceof PGlite) return pgliteRunner(client);
  throw new Error("a list page is read on the database, not in a transaction");
}

/**
 * On PGlite a page's statement is prepared once by name, then only bound and run, through the
 * wire protocol as PostgreSQL's driver does: PGlite's `query()` parses and plans every statement
 * again, 0.6 of the 2.5 ms of CPU a page of 100 claims took (on disk, measured back to back).
 * The locks are PGlite's own (`_runExclusiveTransaction`, `_runExclusiveQuery`: internal, kept
 * by the exact version pin), taken as its `query()` takes them.
 */
function pgliteRunner(client: PGlite): ArrayRunner {
  // A page only selects: its statements leave the data as they found it (db/snapshot.ts).
  const start = (message: Uint8Array) => client.execProtocolStream(message, { syncToFs: false });
  const send = (message: Uint8Array) =>
    client instanceof CountingPGlite ? client.uncounted(() => start(message)) : start(message);
  const options = { rowMode: "array" as const };
  const parsers = { ...client.parsers, [pgliteTypes.TIMESTAMPTZ]: asText };
  const { serialize } = protocol;
  return async (name, text, values) => {
    if (!name) return (await client.query<unknown[]>(text, values, { ...options, parsers })).rows;
    const parameters = values.map(asParameter);
    await client._checkReady();
    // After any transaction in progress, and alone: PGlite has one session.
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        const messages: BackendMessage[] = [];
        try {
          if (prepareOnce(client, name, text)) {
            try {
              messages.push(...(await send(serialize.parse({ name, text, types: [] }))));
            } catch (error) {
              // Not prepared after all: the next run parses it again.
              preparedOn.get(client)?.delete(name);
              throw error;
            }
          }
          messages.push(...(await send(serialize.bind({ statement: name, values: parameters }))));
          messages.push(...(await send(serialize.describe({ type: "P" }))));
          messages.push(...(await send(serialize.execute({}))));
        } finally {
          // Also after an error: it ends the statement, and the next one starts clean.
          messages.push(...(await send(serialize.sync())));
        }
        return (parse.parseResults(messages, parsers, options)[0]?.rows ?? []) as unknown[][];
      }),
    );
  };
}

/** The statements prepared in each PGlite session, by name: their text. */
const preparedOn = new WeakMap<PGlite, Map<string, string>>();

/**
 * Whether `name` must be prepared now (first use in this session). One name stands for one
 * text, as PostgreSQL's driver insists: anything else is a bug, not a second statement.
 */
function prepareOnce(client: PGlite, name: string, text: string): boolean {
  const prepared = preparedOn.get(client) ?? new Map<string, string>();
  preparedOn.set(client, prepared);
  const known = prepared.get(name);
  if (known === undefined) {
    prepared.set(name, text);
    return true;
  }
  if (known !== text) throw new Error(`statement ${name} is already prepared with another text`);
  return false;
}

/**
 * A value as the text PostgreSQL reads for the parameters a page has: text, uuids, times and
 * numbers. Anything else would need a type's own serialiser; it is refused, not guessed.
 */
function asParameter(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint") {
    return String(value);
  }
  throw new TypeError(`a page parameter must be text, a number or a time, not ${typeof value}`);
}
