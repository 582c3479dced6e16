/**
 * `Idempotency-Key` on POST: the first request with a key (per API key) executes; a retry with
 * the same key and the same request gets the first answer again (status, body, Location); the
 * same key with another request answers 422. A retry arriving while the first is still running
 * waits for its answer. Server errors (5xx) are not remembered, so a retry executes again.
 *
 * Mounted after the body parser, since the request's fingerprint includes its parsed body.
 */
import { createHash } from "node:crypto";
import type { Request, RequestHandler } from "express";
import {
  claimIdempotencyKey,
  findIdempotencyRecord,
  releaseIdempotencyKey,
  storeIdempotentAnswer,
  takeOverStaleIdempotencyKey,
} from "../db/idempotencyKeys.ts";
import type { AppDeps } from "../deps.ts";
import { idempotencyKeyInUse, idempotencyKeyReused } from "../errorCatalogue.ts";
import { ValidationError } from "../errors.ts";
import { authOf } from "./auth.ts";

/** A first request that has not answered after this long is taken over by a retry. */
const STALE_AFTER_SECONDS = 60;
const POLL_MS = 50;

/**
 * A stable JSON text: object keys sorted, so `{a,b}` and `{b,a}` are the same request. The body
 * was parsed at most MAX_JSON_DEPTH deep, and JSON.stringify walks it; nothing here recurses.
 */
function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

function fingerprint(req: Request): string {
  const hash = createHash("sha256");
  hash.update(`${req.method} ${req.baseUrl}${req.path}\n`);
  hash.update(canonical(req.body));
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

export function idempotency(deps: Pick<AppDeps, "db" | "config">): RequestHandler {
  const { db } = deps;
  // A waiting retry gives up after the first request's own longest wait, plus margin.
  const waitMs = deps.config.CONFIRM_TIMEOUT_MS + 30_000;

  return async (req, res, next) => {
    const key = req.get("idempotency-key");
    if (key === undefined) return next();
    if (key.length === 0 || key.length > 255) {
      throw new ValidationError("Idempotency-Key: must be 1 to 255 characters", [
        { field: "Idempotency-Key", code: "invalid", message: "must be 1 to 255 characters" },
      ]);
    }
    const apiKeyId = authOf(res).keyId;
    const requestHash = fingerprint(req);
    const deadline = Date.now() + waitMs;

    for (;;) {
      if (await claimIdempotencyKey(db, apiKeyId, key, requestHash)) break; // This one executes.
      const row = await findIdempotencyRecord(db, apiKeyId, key);
      if (!row) continue; // The first one failed with a 5xx and let go: try to take its place.
      if (row.requestHash !== requestHash) throw idempotencyKeyReused();
      if (row.responseStatus !== null) {
        res.set("Idempotent-Replayed", "true");
        if (row.responseLocation) res.location(row.responseLocation);
        res.status(row.responseStatus).json(row.responseBody);
        return;
      }
      // Still running elsewhere; a first request whose process died is taken over.
      if (await takeOverStaleIdempotencyKey(db, apiKeyId, key, STALE_AFTER_SECONDS)) break;
      if (Date.now() > deadline) throw idempotencyKeyInUse();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }

    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const status = res.statusCode;
      // Remembered before the answer leaves, so a retry right after it finds it.
      const remember =
        status < 500
          ? storeIdempotentAnswer(db, apiKeyId, key, {
              status,
              body,
              location: res.get("location") ?? null,
            })
          : releaseIdempotencyKey(db, apiKeyId, key);
      remember.then(
        () => json(body),
        () => json(body),
      );
      return res;
    };
    next();
  };
}
