/**
 * API key authentication. The key is the Basic username with an empty password
 * (`curl -u KEY: ...`), or a Bearer token. Unknown, malformed and revoked keys all answer the
 * same 401 with `WWW-Authenticate: Basic`.
 */
import type { NextFunction, Request, Response } from "express";
import { findActiveApiKey, TOUCH_INTERVAL_MS, touchApiKey } from "../db/apiKeys.ts";
import type { Database } from "../db/client.ts";
import type { Scope } from "../db/organizations.ts";
import { UnauthorizedError } from "../errors.ts";

export interface AuthContext extends Scope {
  keyId: string;
}

declare global {
  namespace Express {
    interface Locals {
      auth?: AuthContext;
    }
  }
}

/** The key in an Authorization header, or undefined when there is none that parses. */
export function keyFromAuthorization(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, credentials, ...rest] = header.trim().split(/\s+/);
  if (!scheme || !credentials || rest.length > 0) return undefined;
  if (/^bearer$/i.test(scheme)) return credentials;
  if (!/^basic$/i.test(scheme)) return undefined;
  const decoded = Buffer.from(credentials, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const username = colon < 0 ? decoded : decoded.slice(0, colon);
  return username || undefined;
}

/** Longest key worth hashing; anything longer is not one of ours. */
const MAX_KEY_LENGTH = 200;

export function authenticate(db: Database) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = keyFromAuthorization(req.get("authorization"));
    if (!key || key.length > MAX_KEY_LENGTH) throw new UnauthorizedError();
    const row = await findActiveApiKey(db, key);
    if (!row) throw new UnauthorizedError("The API key is unknown or revoked");
    res.locals.auth = { keyId: row.id, organizationId: row.organizationId };
    // The row says when use was last recorded: no write, and no round trip, within the minute.
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS) {
      await touchApiKey(db, row.id);
    }
    next();
  };
}

export function authOf(res: Response): AuthContext {
  const auth = res.locals.auth;
  if (!auth) throw new UnauthorizedError();
  return auth;
}
