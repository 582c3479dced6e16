/**
 * The key guard: what every endpoint that takes an API key runs before its handler.
 *
 * API key authentication, in three steps:
 * 1. `Authorization: Bearer KEY`: a small middleware of our own (express-basic-auth reads only
 *    Basic credentials);
 * 2. otherwise express-basic-auth: the key is the Basic username with an empty password
 *    (`curl -u KEY: ...`), looked up by its stored hash; anything else answers 401 with
 *    `WWW-Authenticate: Basic` and the JSON error body;
 * 3. the key's scope goes on `res.locals.auth`, and the credentials leave the request object.
 * Unknown, malformed and revoked keys all answer the same 401.
 *
 * Around it, rate limits, answered 429 with `Retry-After`:
 * - per key: each API key gets RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_MS;
 * - per client address, for requests without a valid key: ANONYMOUS_RATE_LIMIT_MAX answers 401
 *   per window, after which that address's requests are refused unless the key they present is
 *   valid: a request with no key, or with one not shaped like a key, is refused at once; a
 *   well-formed key is looked up (an indexed lookup by hash), so a flood of wrong keys from an
 *   address (or from every client behind one proxy) never locks a valid key out.
 * Counts live in this process's memory; with several API processes each enforces its own share.
 */

import type { NextFunction, Request, RequestHandler, Response } from "express";
import basicAuth, { type IBasicAuthedRequest } from "express-basic-auth";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import {
  type ApiKeyRow,
  findActiveApiKeyCached,
  TOUCH_INTERVAL_MS,
  touchApiKey,
} from "../db/apiKeys.ts";
import type { Database } from "../db/driver/client.ts";
import type { AuthContext } from "../domain/auth.ts";
import type { Env } from "../env.ts";
import { readOnlyKey } from "../errorCatalogue.ts";
import { RateLimitedError, UnauthorizedError } from "../errors.ts";

declare global {
  namespace Express {
    interface Locals {
      auth?: AuthContext;
    }
  }
}

/** Longest key worth hashing; anything longer is not one of ours. */
const MAX_KEY_LENGTH = 200;
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const BEARER = /^bearer(?:\s+(\S+))?\s*$/i;

const noKey = () => new UnauthorizedError();
const unknownKey = () => new UnauthorizedError("The API key is unknown or revoked");

/** The middleware of an endpoint that takes an API key, in the order it runs. */
export function keyGuard(db: Database, config: Env): RequestHandler[] {
  return [
    rateLimitFailedAuthentication({
      max: config.ANONYMOUS_RATE_LIMIT_MAX,
      windowMs: config.RATE_LIMIT_WINDOW_MS,
      presentsValidKey: presentsValidKey(db),
    }),
    ...authenticate(db),
    rateLimitPerKey({ max: config.RATE_LIMIT_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS }),
  ];
}

export function authenticate(db: Database): RequestHandler[] {
  const verified = new WeakMap<Request, ApiKeyRow>();
  const lookUp = async (key: string) =>
    key && key.length <= MAX_KEY_LENGTH ? findActiveApiKeyCached(db, key) : undefined;

  const bearer: RequestHandler = async (req, _res, next) => {
    const match = BEARER.exec(req.get("authorization") ?? "");
    if (!match) return next();
    const row = match[1] ? await lookUp(match[1]) : undefined;
    if (!row) throw match[1] ? unknownKey() : noKey();
    verified.set(req, row);
    next();
  };

  const basic: RequestHandler = (req, res, next) => {
    if (verified.has(req)) return next();
    // Built per request so the authorizer can keep what it found for this request, and hand a
    // failed lookup (the database is down) to the error handler rather than answer 401.
    basicAuth({
      authorizeAsync: true,
      challenge: true,
      realm: "collectibles",
      authorizer: (username, _password, done) => {
        lookUp(username).then((row) => {
          if (row) verified.set(req, row);
          done(null, row !== undefined);
        }, next);
      },
      unauthorizedResponse: (authed: IBasicAuthedRequest) => {
        const error = authed.auth?.user ? unknownKey() : noKey();
        forgetCredentials(authed);
        return { error: { code: error.code, message: error.message } };
      },
    })(req, res, next);
  };

  const attachScope = async (req: Request, res: Response, next: NextFunction) => {
    forgetCredentials(req);
    const row = verified.get(req);
    if (!row) throw noKey();
    // A read-only key reads; nothing it sends can write.
    if (row.readOnly && !READ_METHODS.has(req.method)) throw readOnlyKey();
    res.locals.auth = { keyId: row.id, organizationId: row.organizationId, readOnly: row.readOnly };
    // The row says when use was last recorded: no write, and no round trip, within the minute.
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS) {
      const now = new Date();
      await touchApiKey(db, row.id, now);
      // The row may be the cached one: the next requests need not touch again.
      row.lastUsedAt = now;
    }
    next();
  };

  return [bearer, basic, attachScope];
}

/** The key a request presents (Bearer, or the Basic username), if it is shaped like one. */
function presentedKey(req: Request): string | undefined {
  const header = req.get("authorization") ?? "";
  const bearer = BEARER.exec(header);
  if (bearer) return bearer[1];
  const basic = /^basic\s+(\S+)\s*$/i.exec(header);
  if (!basic?.[1]) return undefined;
  const decoded = Buffer.from(basic[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}

/** Whether the request presents a key that is valid now (looked up, or found recently). */
function presentsValidKey(db: Database) {
  return async (req: Request): Promise<boolean> => {
    const key = presentedKey(req);
    if (!key || key.length > MAX_KEY_LENGTH) return false;
    return (await findActiveApiKeyCached(db, key)) !== undefined;
  };
}

/** express-basic-auth leaves the clear key on `req.auth`; it must not outlive authentication. */
function forgetCredentials(req: Request): void {
  delete (req as Partial<IBasicAuthedRequest>).auth;
}

function rateLimitPerKey({ max, windowMs }: { max: number; windowMs: number }) {
  return rateLimit({
    windowMs,
    limit: max,
    // RateLimit and RateLimit-Policy (IETF draft 8) on every answer; Retry-After on a 429.
    standardHeaders: "draft-8",
    legacyHeaders: false,
    identifier: "per-key",
    keyGenerator: (_req: Request, res: Response) => {
      if (!res.locals.auth) throw new UnauthorizedError();
      return res.locals.auth.keyId;
    },
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
function rateLimitFailedAuthentication({
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
