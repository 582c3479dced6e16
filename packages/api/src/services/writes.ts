/** What every write shares: its transaction, and the changes a PATCH body asks for. */
import type { Transaction } from "../db/driver/client.ts";
import { type IdempotentWrite, recordCreatedObject } from "../db/idempotencyKeys.ts";
import type { RouteDeps } from "../deps.ts";
import { asConflict } from "../errorCatalogue.ts";

/**
 * Runs `work` in one transaction; a unique-index violation becomes the 409 a client reads. A
 * create under an Idempotency-Key (`created`) records its key in the same transaction, so the
 * object and the key's record commit together or not at all.
 */
export function inTransaction<T>(
  deps: Pick<RouteDeps, "db">,
  work: (tx: Transaction) => Promise<T>,
  created?: { idempotency: IdempotentWrite | undefined; idOf(result: T): string },
): Promise<T> {
  return deps.db
    .transaction(async (tx) => {
      const result = await work(tx);
      if (created?.idempotency) {
        await recordCreatedObject(tx, created.idempotency, created.idOf(result));
      }
      return result;
    })
    .catch((error: unknown) => Promise.reject(asConflict(error)));
}

/** The fields the body sets (`undefined` means "unchanged"), under their column names. */
export function changesOf<Body extends object, Columns extends object>(
  body: Body,
  columns: { [K in keyof Body]?: keyof Columns },
): Partial<Columns> {
  const changes: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(columns)) {
    const value = (body as Record<string, unknown>)[field];
    if (value !== undefined) changes[column as string] = value;
  }
  return changes as Partial<Columns>;
}
