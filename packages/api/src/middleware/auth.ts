/**
 * API key authentication, in three steps:
 * 1. `Authorization: Bearer KEY`: a small middleware of our own (express-basic-auth reads only
 *    Basic credentials);
 * 2. otherwise express-basic-auth: the key is the Basic username with an empty password
 *    (`curl -u KEY: ...`), looked up by its stored hash; anything else answers 401 with
 *    `WWW-Authenticate: Basic` and the JSON error body;
 * 3. the key's scope goes on `res.locals.auth`, and the credentials leave the request object.
 * Unknown, malformed and revoked keys all answer the same 401.
 */

import type { NextFunction, Request, RequestHandler, Response } from "express";
import basicAuth, { type IBasicAuthedRequest } from "express-basic-auth";
import {
  type ApiKeyRow,
  findActiveApiKeyCached,
  TOUCH_INTERVAL_MS,
  touchApiKey,
} from "../db/apiKeys.ts";
import type { Database } from "../db/driver/client.ts";
import type { AuthContext } from "../domain/auth.ts";
import { readOnlyKey } from "../errorCatalogue.ts";
import { UnauthorizedError } from "../errors.ts";

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
export function presentedKey(req: Request): string | undefined {
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
export function presentsValidKey(db: Database) {
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

export function authOf(res: Response): AuthContext {
  const auth = res.locals.auth;
  if (!auth) throw new UnauthorizedError();
  return auth;
}
