/**
 * Reads PostgreSQL errors through Drizzle's wrapper (`DrizzleQueryError.cause`): node-postgres
 * reports `code` and `constraint`.
 */
import { DrizzleQueryError } from "drizzle-orm/errors";

interface PgErrorFields {
  code: string;
  constraint?: string;
}

function pgErrorOf(error: unknown): PgErrorFields | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof candidate.code === "string" && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return {
        code: candidate.code,
        constraint: typeof candidate.constraint === "string" ? candidate.constraint : undefined,
      };
    }
    current = candidate.cause;
  }
  return undefined;
}

/** The constraint a unique violation (23505) broke, or undefined for any other error. */
export function uniqueViolation(error: unknown): string | undefined {
  const fields = pgErrorOf(error);
  return fields?.code === "23505" ? (fields.constraint ?? "") : undefined;
}

/**
 * Whether PostgreSQL ended the transaction to break a deadlock (40P01): run again, it succeeds.
 * A claim group's insert waits for the relayer's transaction when a holder claims again while
 * their earlier claim is being confirmed, and the confirmation can then wait for the group.
 */
export function deadlockDetected(error: unknown): boolean {
  return pgErrorOf(error)?.code === "40P01";
}

/**
 * For the operator, never a client: the database's own words for a failure Drizzle wrapped
 * ("Failed query: …" hides them in `cause`), with its detail, hint and SQLSTATE code.
 */
export function databaseErrorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const fields = current as Error & { code?: unknown; detail?: unknown; hint?: unknown };
    const code = typeof fields.code === "string" ? ` (${fields.code})` : "";
    parts.push(`${current.message.split("\n")[0]}${code}`);
    if (typeof fields.detail === "string") parts.push(`detail: ${fields.detail}`);
    if (typeof fields.hint === "string") parts.push(`hint: ${fields.hint}`);
    current = current.cause;
  }
  return parts.join(" — ") || String(error);
}

/**
 * One line saying what failed, without the statement: a failure Drizzle wrapped ("Failed query:
 * select …", then its parameters) answers its cause's words and SQLSTATE instead. For texts
 * anyone may read, such as /ready's.
 */
export function errorLine(error: unknown): string {
  let current = error;
  while (current instanceof DrizzleQueryError && current.cause) current = current.cause;
  if (current instanceof DrizzleQueryError) return "a database query failed";
  if (!(current instanceof Error)) return "error";
  const line = current.message.split("\n")[0] ?? "";
  const code = pgErrorOf(current)?.code;
  return code ? `${line} (${code})` : line;
}
