/**
 * Writes every table of records does the same way: insert and return the row, update some
 * fields (stamping `updated_at`), and deactivate (rows are never deleted: `is_active` goes false
 * and `deleted_at` is stamped, so claims keep their holder and the audit trail holds).
 */
import { eq, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Queryable } from "./client.ts";

type RecordTable = PgTable & { id: PgColumn };

export async function insertRecord<T extends RecordTable>(
  q: Queryable,
  table: T,
  values: T["$inferInsert"],
): Promise<T["$inferSelect"]> {
  const [row] = (await q.insert(table).values(values).returning()) as T["$inferSelect"][];
  if (!row) throw new Error("insert returned no row");
  return row;
}

export async function updateRecord<T extends RecordTable>(
  q: Queryable,
  table: T,
  id: string,
  values: Partial<T["$inferInsert"]>,
): Promise<T["$inferSelect"]> {
  const [row] = (await q
    .update(table)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(table.id, id))
    .returning()) as T["$inferSelect"][];
  if (!row) throw new Error("update matched no row");
  return row;
}

export async function deactivateRecord(
  q: Queryable,
  table: RecordTable,
  id: string,
): Promise<void> {
  await q
    .update(table)
    .set({ isActive: false, deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(table.id, id));
}
