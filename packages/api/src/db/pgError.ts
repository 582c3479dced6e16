/**
 * Reads PostgreSQL errors through Drizzle's wrapper (`DrizzleQueryError.cause`), the same way
 * for node-postgres and PGlite, which both report `code` and `constraint`.
 */
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
