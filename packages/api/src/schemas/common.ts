/**
 * Schemas every resource shares: pagination and list queries (and the cursors they read and
 * give), fields a client may not send, envelopes, errors. The fields themselves are in
 * `fields.ts`, images in `images.ts`.
 */
import { isStorableTime, SentTime, Uuid } from "./fields.ts";
import { z } from "./zod.ts";

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;

/**
 * List cursors: the position of a list's last row in its order, (created_at, id), given to the
 * client as an opaque string (base64url of `<ISO time>|<uuid>`) and read back from `?cursor=`.
 */
export interface ListPosition {
  /** ISO 8601, as the row's `created_at` is shown. */
  createdAt: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor({ createdAt, id }: ListPosition): string {
  return Buffer.from(`${createdAt}|${id}`).toString("base64url");
}

/** The position a cursor names, or undefined when it is not one this API gave. */
export function decodeCursor(cursor: string): ListPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  const [time, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (rest.length > 0 || !time || !id || !UUID.test(id)) return undefined;
  const createdAt = new Date(time);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== time) return undefined;
  if (!isStorableTime(createdAt)) return undefined;
  return { createdAt: time, id };
}

/** The event feed's cursor: base64url of `event:<position>`, the last event a reader has. */
export function encodeEventCursor(position: number): string {
  return Buffer.from(`event:${position}`).toString("base64url");
}

/** The position an event cursor names, or undefined when it is not one this API gave. */
export function decodeEventCursor(cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return undefined;
  const match = /^event:(0|[1-9]\d{0,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return match ? Number(match[1]) : undefined;
}

export const IdParams = z.strictObject({
  id: Uuid.openapi({ param: { name: "id", in: "path" } }),
});

/** A whole number in a query string (`?page=2`), checked against a range; absent stays absent. */
const optionalQueryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .optional();

const intParam = (name: string, min: number, max: number, fallback: number) => ({
  param: { name, in: "query" as const },
  type: "integer" as const,
  minimum: min,
  maximum: max,
  default: fallback,
});

/** The same, `fallback` when absent. */
export const queryInt = (name: string, min: number, max: number, fallback: number) =>
  optionalQueryInt(min, max)
    .transform((value) => value ?? fallback)
    .openapi(intParam(name, min, max, fallback));

/**
 * A query parameter holding a cursor this API gave, read back with `decode` as the position it
 * names; one `decode` does not know is refused as `invalid_cursor`, telling where cursors come from.
 */
export function cursorParam<T>(
  name: string,
  decode: (value: string) => T | undefined,
  given: { from: string; description: string },
) {
  return z
    .string()
    .transform((value, ctx) => {
      const position = decode(value);
      if (position === undefined) {
        ctx.addIssue({
          code: "custom",
          message: `is not a cursor this API gave (use ${given.from} as it is)`,
          params: { code: "invalid_cursor" },
        });
        return z.NEVER;
      }
      return position;
    })
    .optional()
    .openapi({ param: { name, in: "query", description: given.description }, type: "string" });
}

/** `?cursor=`: a `pagination.next_cursor` this API gave, read back as the position it names. */
const Cursor = cursorParam("cursor", decodeCursor, {
  from: "pagination.next_cursor",
  description:
    "Instead of page: the page after the one whose pagination.next_cursor this is; as fast at any depth",
});

export const PageQuery = {
  // No default here: a page given beside a cursor is refused; absent means the first page.
  page: optionalQueryInt(1, 2_147_483_647).openapi(intParam("page", 1, 2_147_483_647, 1)),
  limit: queryInt("limit", 1, MAX_LIMIT, DEFAULT_LIMIT),
  cursor: Cursor,
  updated_since: SentTime.optional().openapi({
    param: {
      name: "updated_since",
      in: "query",
      description:
        "Only records changed at or after this time (ISO 8601), e.g. to sync what changed since the last poll",
    },
    example: "2026-11-23T08:00:00.000Z",
  }),
};

/**
 * The query of a list: `page` and `limit`, and optional filters, each a schema and what it
 * selects: `listQuery({ holder_id: [Uuid, "Claims made by this user"] })`.
 */
export function listQuery<const F extends Record<string, readonly [z.ZodType, string]>>(
  filters: F,
) {
  const shape = Object.fromEntries(
    Object.entries(filters).map(([name, [schema, description]]) => [
      name,
      schema.optional().openapi({ param: { name, in: "query", description } }),
    ]),
  ) as { [K in keyof F]: z.ZodOptional<F[K][0]> };
  return z.strictObject({ ...PageQuery, ...shape }).superRefine((query, ctx) => {
    const { page, cursor } = query as { page?: number; cursor?: unknown };
    if (page !== undefined && cursor !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["cursor"],
        message: "give page or cursor, not both",
        params: { code: "page_and_cursor" },
      });
    }
  });
}

/** `finalized=true|false`: objects whose block is final, or not (yet). */
export const FinalizedFilter = [
  z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .openapi({ type: "string", enum: ["true", "false"] }),
  "true: only objects whose block is final (finalized_at set); false: only those not final yet",
] as const;

/** Fields a client may not send because the service sets them, with any other reasons. */
export function readOnly(setByService: readonly string[], others: Record<string, string> = {}) {
  const reasons: Record<string, string> = {};
  for (const field of setByService) reasons[field] = "is set by the service";
  return { ...reasons, ...others };
}

export const ErrorResponse = z
  .strictObject({
    error: z.strictObject({
      code: z.string().openapi({ example: "validation_error" }),
      message: z.string(),
      details: z
        .array(
          z
            .object({
              field: z.string().optional(),
              code: z.string().optional(),
              message: z.string(),
            })
            .catchall(z.unknown()),
        )
        .optional(),
    }),
  })
  .openapi("Error");

export const DeletedResponse = z
  .strictObject({ data: z.strictObject({ id: Uuid, deleted: z.literal(true) }) })
  .openapi("Deleted");

export const dataEnvelope = <T extends z.ZodType>(item: T) => z.strictObject({ data: item });

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.strictObject({
    pagination: z.strictObject({
      page: z.number().int().min(1).nullable().openapi({ description: "Null for a cursor page" }),
      size: z.number().int().min(1).openapi({ description: "The page size (limit)" }),
      pages: z.number().int().min(0).openapi({ description: "ceil(count / size)" }),
      count: z.number().int().min(0).openapi({
        description: "All items matching the filters, counted by the statement that reads the page",
      }),
      next_cursor: z.string().nullable().openapi({
        description: "Give as ?cursor= for the next page; null when this page is the last",
      }),
    }),
    data: z.array(item),
  });

/** The `Idempotency-Key` header every POST accepts (see `middleware/idempotency.ts`). */
export const IdempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(255)
    .optional()
    .openapi({
      description:
        "Any string of 1-255 characters. A retry with the same key and body gets the first " +
        "answer again (status and body); the same key with another body answers 422.",
    }),
});
