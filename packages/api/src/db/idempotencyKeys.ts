/**
 * Records of `Idempotency-Key` requests (per API key): the first request's fingerprint, a lock
 * while it runs, and once answered its status, body and Location, replayed for a retry.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Queryable } from "./client.ts";
import { idempotencyKeys } from "./schema.ts";

export type IdempotencyRecord = typeof idempotencyKeys.$inferSelect;

export interface StoredAnswer {
  status: number;
  body: unknown;
  location: string | null;
}

const keyIs = (apiKeyId: string, key: string) =>
  and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key));

/** Takes the key for a first request; false when a record already holds it. */
export async function claimIdempotencyKey(
  q: Queryable,
  apiKeyId: string,
  key: string,
  requestHash: string,
): Promise<boolean> {
  const inserted = await q
    .insert(idempotencyKeys)
    .values({ apiKeyId, key, requestHash })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return inserted.length > 0;
}

export async function findIdempotencyRecord(
  q: Queryable,
  apiKeyId: string,
  key: string,
): Promise<IdempotencyRecord | undefined> {
  const [row] = await q.select().from(idempotencyKeys).where(keyIs(apiKeyId, key));
  return row;
}

/** Takes over a key whose first request has not answered for `staleAfterSeconds` (it died). */
export async function takeOverStaleIdempotencyKey(
  q: Queryable,
  apiKeyId: string,
  key: string,
  staleAfterSeconds: number,
): Promise<boolean> {
  const taken = await q
    .update(idempotencyKeys)
    .set({ lockedAt: sql`now()` })
    .where(
      and(
        keyIs(apiKeyId, key),
        isNull(idempotencyKeys.responseStatus),
        sql`${idempotencyKeys.lockedAt} < now() - make_interval(secs => ${staleAfterSeconds})`,
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return taken.length > 0;
}

export async function storeIdempotentAnswer(
  q: Queryable,
  apiKeyId: string,
  key: string,
  answer: StoredAnswer,
): Promise<void> {
  await q
    .update(idempotencyKeys)
    .set({
      responseStatus: answer.status,
      responseBody: answer.body ?? null,
      responseLocation: answer.location,
    })
    .where(keyIs(apiKeyId, key));
}

/** Lets go of a key whose request failed on our side: a retry executes again. */
export async function releaseIdempotencyKey(
  q: Queryable,
  apiKeyId: string,
  key: string,
): Promise<void> {
  await q.delete(idempotencyKeys).where(keyIs(apiKeyId, key));
}
