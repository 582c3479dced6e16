/**
 * Records of `Idempotency-Key` requests (per API key): the request's fingerprint, the object it
 * created (written in the object's own transaction), and once answered its status, body and
 * Location. A record older than its time to live reads as absent and is replaced.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Queryable } from "./driver/client.ts";
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
const expired = (ttlMs: number) =>
  sql`${idempotencyKeys.createdAt} <= now() - make_interval(secs => ${ttlMs / 1000})`;

/** What a request's record holds besides its key, fingerprint and time. */
type RecordContent = Pick<
  typeof idempotencyKeys.$inferInsert,
  "objectLocation" | "responseStatus" | "responseBody" | "responseLocation"
>;

const answerContent = (answer: StoredAnswer) => ({
  responseStatus: answer.status,
  responseBody: answer.body ?? null,
  responseLocation: answer.location,
});

/** The live record of the key. */
export async function findIdempotencyRecord(
  q: Queryable,
  of: IdempotencyKeyOf,
): Promise<IdempotencyRecord | undefined> {
  const [row] = await q
    .select()
    .from(idempotencyKeys)
    .where(and(keyIs(of), live(of)));
  return row;
}

/**
 * Records, in the transaction that created it, the object this key's request made. Throws
 * `IdempotencyKeyTaken` when a live record holds the key already (another request with it
 * committed first), so the caller's transaction rolls back.
 */
export function recordCreatedObject(
  q: Queryable,
  write: IdempotentWrite,
  id: string,
): Promise<void> {
  return claimKey(q, write.of, {
    objectLocation: write.locationOf(id),
    responseStatus: null,
    responseBody: null,
    responseLocation: null,
  });
}

/**
 * `recordCreatedObject` for several requests in one statement. Answers the indexes of the writes
 * whose key a live record holds already (their objects must not commit). Keys are distinct.
 */
export async function recordCreatedObjects(
  q: Queryable,
  created: { write: IdempotentWrite; id: string }[],
): Promise<Set<number>> {
  const first = created[0];
  if (!first) return new Set();
  const written = await q
    .insert(idempotencyKeys)
    .values(
      created.map(({ write, id }) => ({
        apiKeyId: write.of.apiKeyId,
        key: write.of.key,
        requestHash: write.of.requestHash,
        objectLocation: write.locationOf(id),
        createdAt: sql`now()`,
      })),
    )
    .onConflictDoUpdate({
      target: [idempotencyKeys.apiKeyId, idempotencyKeys.key],
      set: {
        requestHash: sql`excluded.request_hash`,
        objectLocation: sql`excluded.object_location`,
        responseStatus: null,
        responseBody: null,
        responseLocation: null,
        createdAt: sql`now()`,
      },
      setWhere: expired(first.write.of.ttlMs),
    })
    .returning({ apiKeyId: idempotencyKeys.apiKeyId, key: idempotencyKeys.key });
  const kept = new Set(written.map((row) => `${row.apiKeyId}:${row.key}`));
  const taken = created.flatMap(({ write }, index) =>
    kept.has(`${write.of.apiKeyId}:${write.of.key}`) ? [] : [index],
  );
  return new Set(taken);
}

/**
 * Records, in the transaction of the writes it answers for, a request's whole answer (a batch,
 * whose answer is decided at its commit). Throws `IdempotencyKeyTaken` as `recordCreatedObject`.
 */
export function recordAnswer(
  q: Queryable,
  write: IdempotentWrite,
  answer: StoredAnswer,
): Promise<void> {
  return claimKey(q, write.of, { objectLocation: null, ...answerContent(answer) });
}

/** Writes the key's record, or throws `IdempotencyKeyTaken` when a live one holds the key. */
async function claimKey(q: Queryable, of: IdempotencyKeyOf, content: RecordContent): Promise<void> {
  if (!(await writeUnlessLive(q, of, content))) throw new IdempotencyKeyTaken();
}

/** Writes the key's record unless a live one holds the key; answers whether it wrote. */
async function writeUnlessLive(
  q: Queryable,
  of: IdempotencyKeyOf,
  content: RecordContent,
): Promise<boolean> {
  const fresh = { requestHash: of.requestHash, ...content, createdAt: sql`now()` };
  const written = await q
    .insert(idempotencyKeys)
    .values({ apiKeyId: of.apiKeyId, key: of.key, ...fresh })
    .onConflictDoUpdate({
      target: [idempotencyKeys.apiKeyId, idempotencyKeys.key],
      set: fresh,
      // Only an expired record gives way; a live one keeps the key.
      setWhere: expired(of.ttlMs),
    })
    .returning({ key: idempotencyKeys.key });
  return written.length > 0;
}

/**
 * Adds the answer given to the record of the object the request created, unless one was added
 * already (by a retry answering for the object): then answers that one, which counts.
 */
export async function keepFirstAnswer(
  q: Queryable,
  of: Omit<IdempotencyKeyOf, "ttlMs">,
  answer: StoredAnswer,
): Promise<StoredAnswer | undefined> {
  const thisOne = and(keyIs(of), eq(idempotencyKeys.requestHash, of.requestHash));
  const stored = await q
    .update(idempotencyKeys)
    .set(answerContent(answer))
    .where(and(thisOne, isNull(idempotencyKeys.responseStatus)))
    .returning({ key: idempotencyKeys.key });
  if (stored.length > 0) return undefined;
  const [first] = await q
    .select({
      status: idempotencyKeys.responseStatus,
      body: idempotencyKeys.responseBody,
      location: idempotencyKeys.responseLocation,
    })
    .from(idempotencyKeys)
    .where(thisOne);
  return first?.status == null ? undefined : { ...first, status: first.status };
}

/** Remembers a refusal (no object was created), unless a live record holds the key already. */
export async function storeIdempotentRefusal(
  q: Queryable,
  of: IdempotencyKeyOf,
  answer: StoredAnswer,
): Promise<void> {
  await writeUnlessLive(q, of, { objectLocation: null, ...answerContent(answer) });
}

/** Deletes records past their time to live; answers how many. */
export async function deleteExpiredIdempotencyKeys(q: Queryable, ttlMs: number): Promise<number> {
  const deleted = await q
    .delete(idempotencyKeys)
    .where(expired(ttlMs))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}
