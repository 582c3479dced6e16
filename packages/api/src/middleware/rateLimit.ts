/**
 * Per-key rate limit: each API key gets RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_MS, then
 * 429 with `Retry-After`. Counts live in this process's memory; with several API processes each
 * enforces its own share (a shared store can replace the default one).
 */
import type { NextFunction, Request, Response } from "express";
import { rateLimit } from "express-rate-limit";
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
