/**
 * Records of `Idempotency-Key` requests (per API key): the request's fingerprint, the object it
 * created (written in the object's own transaction), and once answered its status, body and
 * Location. A record older than its time to live reads as absent and is replaced.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "./client.ts";
import { idempotencyKeys } from "./schema.ts";

export type IdempotencyRecord = typeof idempotencyKeys.$inferSelect;

/** Who is asking with which key and request, and how long records of it count. */
export interface IdempotencyKeyOf {
  apiKeyId: string;
  key: string;
  requestHash: string;
  ttlMs: number;
}

/** A creation under an Idempotency-Key: its record goes into the object's transaction. */
export interface IdempotentWrite {
  of: IdempotencyKeyOf;
  /** Where an object of this endpoint lives, by id. */
  locationOf(id: string): string;
}

/** Another request with the key committed its object first; this one's transaction must not. */
export class IdempotencyKeyTaken extends Error {
  override name = "IdempotencyKeyTaken";
}

export interface StoredAnswer {
  status: number;
  body: unknown;
  location: string | null;
}

const keyIs = (of: Pick<IdempotencyKeyOf, "apiKeyId" | "key">) =>
  and(eq(idempotencyKeys.apiKeyId, of.apiKeyId), eq(idempotencyKeys.key, of.key));
const live = (of: IdempotencyKeyOf) =>
  sql`${idempotencyKeys.createdAt} > now() - make_interval(secs => ${of.ttlMs / 1000})`;

/**
 * The live record of the key, and whether its request is overdue: it committed longer ago than
 * `answerWithinMs`, the most it could take to answer (measured by the database's clock, the one
 * that stamped the record).
 */
export async function findIdempotencyRecord(
  q: Queryable,
  of: IdempotencyKeyOf,
  answerWithinMs: number,
): Promise<(IdempotencyRecord & { overdue: boolean }) | undefined> {
  const [row] = await q
    .select({
      record: idempotencyKeys,
      overdue: sql<boolean>`${idempotencyKeys.createdAt} < now() - make_interval(secs => ${answerWithinMs / 1000})`,
    })
    .from(idempotencyKeys)
    .where(and(keyIs(of), live(of)));
  return row && { ...row.record, overdue: row.overdue };
}

/**
 * Records, in the transaction that created it, the object this key's request made. Throws
 * `IdempotencyKeyTaken` when a live record holds the key already (another request with it
 * committed first), so the caller's transaction rolls back.
 */
export async function recordCreatedObject(
  q: Queryable,
  write: IdempotentWrite,
  id: string,
): Promise<void> {
  const { of } = write;
  const location = write.locationOf(id);
  const fresh = {
    requestHash: of.requestHash,
    objectLocation: location,
    responseStatus: null,
    responseBody: null,
    responseLocation: null,
    createdAt: sql`now()`,
  };
  const written = await q
    .insert(idempotencyKeys)
    .values({ apiKeyId: of.apiKeyId, key: of.key, ...fresh })
    .onConflictDoUpdate({
      target: [idempotencyKeys.apiKeyId, idempotencyKeys.key],
      set: fresh,
      // Only an expired record gives way; a live one keeps the key.
      setWhere: sql`${idempotencyKeys.createdAt} <= now() - make_interval(secs => ${of.ttlMs / 1000})`,
    })
    .returning({ key: idempotencyKeys.key });
  if (written.length === 0) throw new IdempotencyKeyTaken();
}

/** Adds the answer given to the record of the object the request created. */
export async function storeIdempotentAnswer(
  q: Queryable,
  of: Omit<IdempotencyKeyOf, "ttlMs">,
  answer: StoredAnswer,
): Promise<void> {
  await q
    .update(idempotencyKeys)
    .set({
      responseStatus: answer.status,
      responseBody: answer.body ?? null,
      responseLocation: answer.location,
    })
    .where(and(keyIs(of), eq(idempotencyKeys.requestHash, of.requestHash)));
}

/** Remembers a refusal (no object was created), unless a live record holds the key already. */
export async function storeIdempotentRefusal(
  q: Queryable,
  of: IdempotencyKeyOf,
  answer: StoredAnswer,
): Promise<void> {
  const fresh = {
    requestHash: of.requestHash,
    objectLocation: null,
    responseStatus: answer.status,
    responseBody: answer.body ?? null,
    responseLocation: answer.location,
    createdAt: sql`now()`,
  };
  await q
    .insert(idempotencyKeys)
    .values({ apiKeyId: of.apiKeyId, key: of.key, ...fresh })
    .onConflictDoUpdate({
      target: [idempotencyKeys.apiKeyId, idempotencyKeys.key],
      set: fresh,
      setWhere: sql`${idempotencyKeys.createdAt} <= now() - make_interval(secs => ${of.ttlMs / 1000})`,
    });
}

/** Deletes records past their time to live; answers how many. */
export async function deleteExpiredIdempotencyKeys(q: Queryable, ttlMs: number): Promise<number> {
  const deleted = await q
    .delete(idempotencyKeys)
    .where(sql`${idempotencyKeys.createdAt} <= now() - make_interval(secs => ${ttlMs / 1000})`)
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}
