/**
 * Rate limits, answered 429 with `Retry-After`:
 * - per key: each API key gets RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_MS;
 * - per client address, for requests without a valid key: ANONYMOUS_RATE_LIMIT_MAX answers 401
 *   per window, after which that address's requests are refused unless the key they present is
 *   valid: a request with no key, or with one not shaped like a key, is refused at once; a
 *   well-formed key is looked up (an indexed lookup by hash), so a flood of wrong keys from an
 *   address (or from every client behind one proxy) never locks a valid key out.
 * Counts live in this process's memory; with several API processes each enforces its own share.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import { RateLimitedError } from "../errors.ts";
import { authOf } from "./auth.ts";

export function rateLimitPerKey({ max, windowMs }: { max: number; windowMs: number }) {
  return rateLimit({
    windowMs,
    limit: max,
    // RateLimit and RateLimit-Policy (IETF draft 8) on every answer; Retry-After on a 429.
    standardHeaders: "draft-8",
    legacyHeaders: false,
    identifier: "per-key",
    keyGenerator: (_req: Request, res: Response) => authOf(res).keyId,
    handler: (_req: Request, res: Response, next: NextFunction) => {
      const retryAfter = Number(res.getHeader("Retry-After")) || Math.ceil(windowMs / 1000);
      next(new RateLimitedError(retryAfter));
    },
    // The key comes from authentication, not the client's IP: the IP checks do not apply.
    validate: { ip: false, trustProxy: false, xForwardedForHeader: false },
  });
}

/** Addresses remembered at most; beyond it the oldest go (a flood from many addresses). */
const MAX_ADDRESSES = 100_000;

/**
 * Counts only answers that went out as 401: a request its client gave up on (closed before the
 * answer) or that passed authentication is no refusal. (express-rate-limit counts every request
 * and takes back the successful ones when they finish, so aborted requests with a valid key used
 * to count, and enough of them locked an address out.)
 */
export function rateLimitFailedAuthentication({
  max,
  windowMs,
  presentsValidKey,
}: {
  max: number;
  windowMs: number;
  presentsValidKey: (req: Request) => Promise<boolean>;
}): RequestHandler {
  const refusals = new Map<string, { count: number; resetAt: number }>();
  return async (req, res, next) => {
    const address = ipKeyGenerator(req.ip ?? "unknown");
    const now = Date.now();
    const known = refusals.get(address);
    if (known && known.resetAt > now && known.count >= max && !(await presentsValidKey(req))) {
      return next(new RateLimitedError(Math.max(1, Math.ceil((known.resetAt - now) / 1000))));
    }
    res.once("finish", () => {
      if (res.statusCode !== 401) return;
      const at = Date.now();
      const entry = refusals.get(address);
      if (entry && entry.resetAt > at) {
        entry.count += 1;
        return;
      }
      refusals.delete(address);
      if (refusals.size >= MAX_ADDRESSES) {
        const oldest = refusals.keys().next().value;
        if (oldest !== undefined) refusals.delete(oldest);
      }
      refusals.set(address, { count: 1, resetAt: at + windowMs });
    });
    next();
  };
}
