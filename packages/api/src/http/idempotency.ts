/**
 * `Idempotency-Key` on POST: the first request with a key (per API key) executes; a retry with the
 * same key and request gets the first answer again (status, body, Location, and
 * `Idempotent-Replayed: true`); the same key with another request answers 422.
 *
 * The object a request creates and the key's record are written in one transaction (see
 * `services/writes.ts`), so nothing can create a second object: a concurrent first request loses
 * on the key and answers as the winner did, and a retry after a crash between the commit and the
 * answer finds the object and answers with it. Refusals are remembered too; server errors (5xx)
 * are not, so a retry executes again. Records count for IDEMPOTENCY_TTL_HOURS.
 */
import { createHash } from "node:crypto";
import type { Request, Response } from "express";
import {
  findIdempotencyRecord,
  type IdempotencyKeyOf,
  IdempotencyKeyTaken,
  type IdempotencyRecord,
  type IdempotentWrite,
  storeIdempotentAnswer,
  storeIdempotentRefusal,
} from "../db/idempotencyKeys.ts";
import type { RouteDeps } from "../deps.ts";
import { idempotencyKeyInUse, idempotencyKeyReused } from "../errorCatalogue.ts";
import { ApiError, ValidationError } from "../errors.ts";
import type { AnyInput, AnyReply, Endpoint } from "./endpoint.ts";

const POLL_MS = 50;
/** Beyond the first request's own longest wait (CONFIRM_TIMEOUT_MS) before it answers. */
const ANSWER_SLACK_MS = 5_000;

export async function answerIdempotently(
  req: Request,
  res: Response,
  endpoint: Endpoint,
  parse: () => AnyInput,
  deps: RouteDeps,
): Promise<AnyReply> {
  const key = req.get("idempotency-key");
  const auth = res.locals.auth;
  if (key === undefined || !auth) return endpoint.handle(parse(), deps);
  if (key.length === 0 || key.length > 255) {
    throw new ValidationError("Idempotency-Key: must be 1 to 255 characters", [
      { field: "Idempotency-Key", code: "invalid", message: "must be 1 to 255 characters" },
    ]);
  }
  const of: IdempotencyKeyOf = {
    apiKeyId: auth.keyId,
    key,
    requestHash: fingerprint(req),
    ttlMs: deps.config.IDEMPOTENCY_TTL_HOURS * 3_600_000,
  };
  const write: IdempotentWrite = { of, locationOf: (id) => `${endpoint.spec.path}/${id}` };
  // The longest a first request takes from its commit to its answer.
  const answerWithinMs = deps.config.CONFIRM_TIMEOUT_MS + ANSWER_SLACK_MS;
  const giveUpAt = Date.now() + 2 * answerWithinMs;
  for (;;) {
    const record = await findIdempotencyRecord(deps.db, of, answerWithinMs);
    if (record) {
      if (record.requestHash !== of.requestHash) throw idempotencyKeyReused();
      const replay = await replayOf(record, endpoint, { auth, baseUrl: deps.baseUrl() }, deps);
      if (replay) {
        res.set("Idempotent-Replayed", "true");
        return replay;
      }
      if (Date.now() > giveUpAt) throw idempotencyKeyInUse();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      continue;
    }
    try {
      const reply = await endpoint.handle({ ...parse(), idempotency: write }, deps);
      await storeIdempotentAnswer(deps.db, of, answerOf(reply));
      return reply;
    } catch (error) {
      // A concurrent first request with the key committed: answer as it does.
      if (error instanceof IdempotencyKeyTaken) continue;
      if (error instanceof ApiError && error.status < 500) {
        // A concurrent first request with the key may have committed while this one ran, and
        // made it fail (the same claim, the last place): answer as that one does.
        if (await findIdempotencyRecord(deps.db, of, answerWithinMs)) continue;
        const body = {
          error: { code: error.code, message: error.message, details: error.details },
        };
        await storeIdempotentRefusal(deps.db, of, { status: error.status, body, location: null });
      }
      throw error;
    }
  }
}

/**
 * The answer for a retry: the one given, or, for an object created by a request that has not
 * answered in the time it had (it died between its commit and its answer), the object as it is
 * now. Undefined while the first request may still answer.
 */
async function replayOf(
  record: IdempotencyRecord & { overdue: boolean },
  endpoint: Endpoint,
  input: Pick<AnyInput, "auth" | "baseUrl">,
  deps: RouteDeps,
): Promise<AnyReply | undefined> {
  if (record.responseStatus !== null) {
    const headers = record.responseLocation ? { Location: record.responseLocation } : undefined;
    return { status: record.responseStatus, body: record.responseBody, headers };
  }
  if (!record.overdue || !record.objectLocation || !endpoint.recover) return undefined;
  const reply = await endpoint.recover(record.objectLocation, input, deps);
  await storeIdempotentAnswer(deps.db, record, answerOf(reply));
  return reply;
}

function answerOf(reply: AnyReply) {
  return { status: reply.status, body: reply.body, location: reply.headers?.Location ?? null };
}

/**
 * What makes two requests the same: method, path, body (object keys sorted, so `{a,b}` and `{b,a}`
 * match) and uploaded files. The body was parsed at most MAX_JSON_DEPTH deep, and JSON.stringify
 * walks it; nothing here recurses over request data.
 */
function fingerprint(req: Request): string {
  const hash = createHash("sha256");
  hash.update(`${req.method} ${req.baseUrl}${req.path}\n`);
  hash.update(
    JSON.stringify(req.body ?? null, (_key, item: unknown) =>
      item && typeof item === "object" && !Array.isArray(item) && !Buffer.isBuffer(item)
        ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : item,
    ),
  );
  const files = req.files as Record<string, Express.Multer.File[]> | undefined;
  if (files && !Array.isArray(files)) {
    for (const field of Object.keys(files).sort()) {
      for (const file of files[field] ?? []) {
        hash.update(`\n${field}:`);
        hash.update(createHash("sha256").update(file.buffer).digest("hex"));
      }
    }
  }
  return hash.digest("hex");
}
