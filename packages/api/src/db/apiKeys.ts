/**
 * API keys: `ck_live_` + 32 random base62 characters (~190 bits). The prefix makes a leaked key
 * recognisable to secret scanners; only its SHA-256 is stored, and it is shown once at creation.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Queryable } from "./driver/client.ts";
import { apiKeys } from "./schema.ts";

export const KEY_PREFIX = "ck_live_";
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LENGTH = 32;
/** How much of a key is kept in clear to tell keys apart in a list. */
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 4;

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** What lists and the CLI show about a key: never the key or its hash. */
export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  organization_id: string | null;
  read_only: boolean;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export function generateApiKey(): string {
  let secret = "";
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(SECRET_LENGTH * 2)) {
      // 248 = 4 * 62: dropping bytes >= 248 keeps every character equally likely.
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += ALPHABET[byte % 62];
    }
  }
  return KEY_PREFIX + secret;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function toApiKeyInfo(row: ApiKeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    organization_id: row.organizationId,
    read_only: row.readOnly,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

/** Creates a key; the returned `key` is the only time it exists in clear. */
export async function createApiKey(
  q: Queryable,
  { name, organizationId = null, readOnly = false, key = generateApiKey() }: CreateApiKeyInput,
): Promise<{ key: string; info: ApiKeyInfo }> {
  const [row] = await q
    .insert(apiKeys)
    .values({ ...storedKey(key), name, organizationId, readOnly })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return { key, info: toApiKeyInfo(row) };
}

/** What is stored of a key itself: its shown prefix and its hash, never the key. */
function storedKey(key: string) {
  return { prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), keyHash: hashApiKey(key) };
}

export interface CreateApiKeyInput {
  name: string;
  organizationId?: string | null;
  /** Only GET is allowed with it. */
  readOnly?: boolean;
  /** A key chosen by the operator (API_KEY); otherwise a fresh random one. */
  key?: string;
}

/** The active key matching `key`, or undefined. */
export async function findActiveApiKey(q: Queryable, key: string): Promise<ApiKeyRow | undefined> {
  const hash = hashApiKey(key);
  const [row] = await q
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
    .limit(1);
  // The index lookup already matched; comparing the hashes in constant time as well keeps the
  // decision itself free of early exits on the secret.
  if (!row || !timingSafeEqual(Buffer.from(row.keyHash, "hex"), Buffer.from(hash, "hex"))) {
    return undefined;
  }
  return row;
}

/**
 * How long a key found active is trusted without asking the database again: authentication
 * then costs no round trip, and a revocation by another API process holds within this long
 * (a revocation through this process holds at once).
 */
export const KEY_CACHE_MS = 1_000;
const KEY_CACHE_MAX = 10_000;

/** Active keys found lately, by key hash, per database handle. */
const foundLately = new WeakMap<object, Map<string, { row: ApiKeyRow; until: number }>>();

/** The channel a revocation is announced on, so that every API process forgets at once. */
export const KEY_REVOKED_CHANNEL = "api_key_revoked";

/** Forgets every key found lately on `db` (a key was revoked, here or in another process). */
export function forgetFoundKeys(db: object): void {
  foundLately.get(db)?.clear();
}

/** `findActiveApiKey`, answered from the keys found in the last KEY_CACHE_MS when it can be. */
export async function findActiveApiKeyCached(
  q: Queryable,
  key: string,
): Promise<ApiKeyRow | undefined> {
  let cache = foundLately.get(q);
  if (!cache) {
    cache = new Map();
    foundLately.set(q, cache);
  }
  const hash = hashApiKey(key);
  const now = Date.now();
  const cached = cache.get(hash);
  if (cached && cached.until > now) return cached.row;
  const row = await findActiveApiKey(q, key);
  if (cache.size >= KEY_CACHE_MAX) cache.clear();
  if (row) cache.set(hash, { row, until: now + KEY_CACHE_MS });
  else cache.delete(hash);
  return row;
}

/** A key's last use is recorded at most this often, so authentication rarely writes. */
export const TOUCH_INTERVAL_MS = 60_000;

/** Records use at most once a minute per key, so authentication does not write on every call. */
export async function touchApiKey(q: Queryable, id: string, now = new Date()): Promise<void> {
  const minuteAgo = new Date(now.getTime() - TOUCH_INTERVAL_MS);
  await q
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, minuteAgo))),
    );
}

export async function listApiKeys(q: Queryable): Promise<ApiKeyInfo[]> {
  const rows = await q.select().from(apiKeys).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  return rows.map(toApiKeyInfo);
}

export async function countActiveApiKeys(q: Queryable): Promise<number> {
  const rows = await q.select({ id: apiKeys.id }).from(apiKeys).where(isNull(apiKeys.revokedAt));
  return rows.length;
}

/** Revokes a key by id; answers the key, or undefined when there is no active key with that id. */
export async function revokeApiKey(q: Queryable, id: string): Promise<ApiKeyInfo | undefined> {
  const [row] = await q
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning();
  // Revocations are rare: forget every key found lately rather than look for this one, here and
  // (told at commit) in every other API process.
  forgetFoundKeys(q);
  if (row) await q.execute(sql`select pg_notify(${KEY_REVOKED_CHANNEL}, ${row.id})`);
  return row ? toApiKeyInfo(row) : undefined;
}

/**
 * Makes sure `key` (from API_KEY) is accepted: created if unknown. Answers whether it was created,
 * or "revoked" when an operator revoked it (then it stays revoked).
 */
export async function ensureApiKey(
  q: Queryable,
  key: string,
  name: string,
): Promise<"created" | "exists" | "revoked"> {
  // Several API processes may start at once with the same API_KEY: one inserts it, the others
  // find it, and none fails on the unique key hash.
  const stored = storedKey(key);
  const inserted = await q
    .insert(apiKeys)
    .values({ ...stored, name })
    .onConflictDoNothing({ target: apiKeys.keyHash })
    .returning({ id: apiKeys.id });
  if (inserted.length > 0) return "created";
  const [row] = await q
    .select({ revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, stored.keyHash));
  return row?.revokedAt ? "revoked" : "exists";
}
