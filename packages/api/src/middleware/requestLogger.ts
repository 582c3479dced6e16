/**
 * One structured log line per request with a request id. The id comes from a well-formed
 * `X-Request-Id` header or is generated, and is echoed in the response's `X-Request-Id`.
 * Headers are not logged except a few harmless ones: Authorization never appears; query values
 * are logged only for paging.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pinoHttp } from "pino-http";
import type { Logger } from "../logger.ts";

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Query values safe to log: paging, never a filter (an email) or a misplaced key. */
const LOGGED_QUERY_VALUES = new Set(["page", "limit", "cursor"]);

/** The URL with every query value but paging replaced, so logs keep no personal data. */
export function withoutQueryValues(url: string): string {
  const mark = url.indexOf("?");
  if (mark < 0) return url;
  const params = new URLSearchParams(url.slice(mark + 1));
  const kept = [...params].map(([name, value]): [string, string] =>
    LOGGED_QUERY_VALUES.has(name) ? [name, value] : [name, "[redacted]"],
  );
  return `${url.slice(0, mark)}?${new URLSearchParams(kept).toString()}`;
}

export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const incoming = req.headers["x-request-id"];
      const id =
        typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
    customProps: (_req, res) => {
      const auth = (res as ServerResponse & { locals?: { auth?: { keyId: string } } }).locals?.auth;
      return auth ? { key_id: auth.keyId } : {};
    },
    serializers: {
      req: (req: {
        id: unknown;
        method: string;
        url: string;
        headers: Record<string, unknown>;
      }) => ({
        id: req.id,
        method: req.method,
        url: withoutQueryValues(req.url),
        user_agent: req.headers["user-agent"],
        content_type: req.headers["content-type"],
        content_length: req.headers["content-length"],
      }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
  });
}
