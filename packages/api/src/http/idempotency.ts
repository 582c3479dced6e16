/**
 * `Idempotency-Key` on POST: the first request with a key (per API key) executes; a retry with the
 * same key and request gets the first answer again (status, body, Location, and
 * `Idempotent-Replayed: true`); the same key with another request answers 422.
 *
 * The object a request creates and the key's record are written in one transaction (see
 * `services/writes.ts`), so nothing can create a second object: a concurrent first request loses
 * on the key and answers as the winner did, and a retry that finds the object but no answer yet
 * (the first request still waits for the chain, or its process died after the commit, on this
 * API process or another) answers for the object at once, as the create does. The first answer
 * stored is the one every later retry gets. Refusals are remembered too; server errors (5xx) are
 * not, so a retry executes again. Records count for IDEMPOTENCY_TTL_HOURS.
 */
import { createHash } from "node:crypto";
import type { Request, Response } from "express";
import {
  findIdempotencyRecord,
  type IdempotencyKeyOf,
  IdempotencyKeyTaken,
  type IdempotencyRecord,
  type IdempotentWrite,
  keepFirstAnswer,
  type StoredAnswer,
  storeIdempotentRefusal,
} from "../db/idempotencyKeys.ts";
import type { RouteDeps } from "../deps.ts";
import { idempotencyKeyReused } from "../errorCatalogue.ts";
import { ApiError, ValidationError } from "../errors.ts";
import type { AnyInput, AnyReply, Endpoint } from "./endpoint.ts";

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
  const replayed = (reply: AnyReply) => {
    res.set("Idempotent-Replayed", "true");
    return reply;
  };
  for (;;) {
    const record = await findIdempotencyRecord(deps.db, of);
    if (record) {
      if (record.requestHash !== of.requestHash) throw idempotencyKeyReused();
      return replayed(await replayOf(record, endpoint, { auth, baseUrl: deps.baseUrl() }, deps));
    }
    try {
      const reply = await endpoint.handle({ ...parse(), idempotency: write }, deps);
      // A retry may have answered first for the object this request created: one answer counts.
      const kept = await keepFirstAnswer(deps.db, of, answerOf(reply));
      return kept ? replyOf(kept) : reply;
    } catch (error) {
      // A concurrent first request with the key committed: answer as it does.
      if (error instanceof IdempotencyKeyTaken) continue;
      if (error instanceof ApiError && error.status < 500) {
        // A concurrent first request with the key may have committed while this one ran, and
        // made it fail (the same claim, the last place): answer as that one does.
        if (await findIdempotencyRecord(deps.db, of)) continue;
        await storeIdempotentRefusal(deps.db, of, refusalOf(error));
      }
      throw error;
    }
  }
}

/**
 * The answer for a retry: the one given; or, for an object whose request has not answered yet
 * (it is still waiting for the chain, or it died after its commit), the answer the create gives
 * for that object (`Endpoint.recover`), without waiting for the first request or its process.
 */
async function replayOf(
  record: IdempotencyRecord,
  endpoint: Endpoint,
  input: Pick<AnyInput, "auth" | "baseUrl">,
  deps: RouteDeps,
): Promise<AnyReply> {
  if (record.responseStatus !== null) {
    return replyOf({
      status: record.responseStatus,
      body: record.responseBody,
      location: record.responseLocation,
    });
  }
  if (!record.objectLocation || !endpoint.recover) {
    throw new Error("Idempotency-Key record without an answer or a recoverable object");
  }
  let answer: StoredAnswer;
  try {
    answer = answerOf(await endpoint.recover(record.objectLocation, input, deps));
  } catch (error) {
    // The create's own refusal after its commit (a claim the chain refused) is an answer too.
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    answer = refusalOf(error);
  }
  return replyOf((await keepFirstAnswer(deps.db, record, answer)) ?? answer);
}

function refusalOf(error: ApiError): StoredAnswer {
  const body = { error: { code: error.code, message: error.message, details: error.details } };
  return { status: error.status, body, location: null };
}

function replyOf(answer: StoredAnswer): AnyReply {
  const headers = answer.location ? { Location: answer.location } : undefined;
  return { status: answer.status, body: answer.body, headers };
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
