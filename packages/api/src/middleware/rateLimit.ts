/**
 * Rate limits, answered 429 with `Retry-After`:
 * - per key: each API key gets RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_MS;
 * - per client address, for requests without a valid key: ANONYMOUS_RATE_LIMIT_MAX answers 401
 *   per window, after which that address is refused before its key is even looked up (so a
 *   flood of made-up keys costs no database lookups).
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

export function rateLimitFailedAuthentication({
  max,
  windowMs,
}: {
  max: number;
  windowMs: number;
}): RequestHandler {
  return rateLimit({
    windowMs,
    limit: max,
    // Headers describe the key's own limit; this one is the address's and stays unadvertised.
    standardHeaders: false,
    legacyHeaders: false,
    identifier: "per-address",
    requestPropertyName: "addressRateLimit",
    keyGenerator: (req: Request) => ipKeyGenerator(req.ip ?? "unknown"),
    // Only refusals of the key count: a valid key's requests are the per-key limit's business.
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req: Request, res: Response) => res.statusCode !== 401,
    handler: (req: Request, _res: Response, next: NextFunction) => {
      const { resetTime } =
        (req as Request & { addressRateLimit?: { resetTime?: Date } }).addressRateLimit ?? {};
      const seconds = resetTime ? Math.ceil((resetTime.getTime() - Date.now()) / 1000) : 0;
      next(new RateLimitedError(Math.max(1, seconds || Math.ceil(windowMs / 1000))));
    },
    validate: { trustProxy: false, xForwardedForHeader: false },
  });
}
