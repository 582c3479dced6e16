/**
 * The tables a reader declares (`readTables.ts`, drizzle alone) are the indexer's
 * (`ponder.schema.ts`): a column renamed, retyped or added in one and not the other fails here,
 * before a reader's query names a column Ponder does not have.
 */
import { toSnakeCase } from "drizzle-orm/casing";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as indexed from "../ponder.schema.ts";
import * as read from "../readTables.ts";

/**
 * What a query depends on: the table's name, and each column's name in SQL, type and keys. A
 * column named by its key is snake_cased in SQL, as `@ponder/client` asks drizzle to.
 */
function shapeOf(table: PgTable) {
  const config = getTableConfig(table);
  return {
    name: config.name,
    columns: Object.fromEntries(
      config.columns.map((column) => [
        column.keyAsName ? toSnakeCase(column.name) : column.name,
        { type: column.getSQLType(), notNull: column.notNull, primary: column.primary },
      ]),
    ),
  };
}

describe("the tables a reader declares", () => {
  it("are the indexer's collectible table, column for column", () => {
    expect(shapeOf(read.collectible)).toEqual(shapeOf(indexed.collectible as unknown as PgTable));
    expectTypeOf<typeof read.collectible.$inferSelect>().toEqualTypeOf<
      typeof indexed.collectible.$inferSelect
    >();
  });

  it("are the indexer's claim table, column for column", () => {
    expect(shapeOf(read.claim)).toEqual(shapeOf(indexed.claim as unknown as PgTable));
    expectTypeOf<typeof read.claim.$inferSelect>().toEqualTypeOf<
      typeof indexed.claim.$inferSelect
    >();
  });

  it("read and write values as the indexer's columns do", () => {
    expect(read.claim.tokenId.mapFromDriverValue("340282366920938463463374607431768211457")).toBe(
      indexed.claim.tokenId.mapFromDriverValue("340282366920938463463374607431768211457"),
    );
    for (const value of ["0xAbCd", "0xABC"] as const) {
      expect(read.claim.holder.mapToDriverValue(value)).toBe(
        indexed.claim.holder.mapToDriverValue(value),
      );
    }
  });

  it("are every table the indexer has", () => {
    const tables = (module: object) =>
      Object.entries(module)
        .filter(
          ([, value]) => typeof value === "object" && value && Symbol.for("drizzle:Name") in value,
        )
        .map(([name]) => name)
        .sort();
    expect(tables(read)).toEqual(tables(indexed));
  });
});
