/**
 * One structured log line per request with a request id. The id comes from a well-formed
 * `X-Request-Id` header or is generated, and is echoed in the response's `X-Request-Id`.
 * Headers are not logged except a few harmless ones: Authorization never appears; query values
 * are logged only for paging.
 *
 * Written here rather than with pino-http: that makes a child logger (with its redaction) for
 * every request, 5% of a list page's CPU, while the line itself needs only the parent logger.
 * Errors, which are rare, get a child logger carrying the request id (`requestLog`).
 *
 * The line itself is written without the logger's redaction: it holds only the fields chosen
 * below, and redaction copies every object logged, 8% of what the API allocated while it took a
 * burst of claims (docs/performance.md, "The request line is not redacted").
 */
import { randomUUID } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "../logger.ts";
import { decodeCursor, decodeEventCursor } from "../schemas/common.ts";

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Query values safe to log: paging, and only when it is well-formed (a number, a cursor this API
 * gave), never a filter (an email) or a key pasted into any of them.
 */
const LOGGED_QUERY_VALUES: Record<string, (value: string) => boolean> = {
  page: (value) => /^\d{1,9}$/.test(value),
  limit: (value) => /^\d{1,9}$/.test(value),
  cursor: (value) => decodeCursor(value) !== undefined || decodeEventCursor(value) !== undefined,
};

/** The URL with every query value but paging replaced, so logs keep no personal data. */
export function withoutQueryValues(url: string): string {
  const mark = url.indexOf("?");
  if (mark < 0) return url;
  const params = new URLSearchParams(url.slice(mark + 1));
  const kept = [...params].map(([name, value]): [string, string] =>
    Object.hasOwn(LOGGED_QUERY_VALUES, name) && LOGGED_QUERY_VALUES[name]?.(value)
      ? [name, value]
      : [name, "[redacted]"],
  );
  return `${url.slice(0, mark)}?${new URLSearchParams(kept).toString()}`;
}

const requests = new WeakMap<Request, { logger: Logger; id: string }>();

/** A logger for this request's errors, carrying its id. */
export function requestLog(req: Request): Logger | undefined {
  const known = requests.get(req);
  return known?.logger.child({ req: { id: known.id } });
}

export function requestLogger(logger: Logger): RequestHandler {
  const lines = logger.child({}, { redact: { paths: [] } });
  return (req, res, next) => {
    const incoming = req.headers["x-request-id"];
    const id = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader("X-Request-Id", id);
    requests.set(req, { logger, id });
    const started = performance.now();
    // The URL as it came: routers rewrite req.url as they go.
    const url = req.originalUrl;
    const done = () => {
      res.off("close", aborted);
      logLine(lines, req, res, id, url, started, "request completed");
    };
    const aborted = () => {
      res.off("finish", done);
      logLine(lines, req, res, id, url, started, "request aborted");
    };
    res.once("finish", done);
    res.once("close", aborted);
    next();
  };
}

function logLine(
  logger: Logger,
  req: Request,
  res: Response,
  id: string,
  url: string,
  started: number,
  message: string,
): void {
  const status = res.statusCode;
  const level = status >= 500 ? "error" : status >= 400 || !res.writableFinished ? "warn" : "info";
  if (!logger.isLevelEnabled(level)) return;
  const keyId = res.locals.auth?.keyId;
  logger[level](
    {
      req: {
        id,
        method: req.method,
        url: withoutQueryValues(url),
        user_agent: req.headers["user-agent"],
        content_type: req.headers["content-type"],
        content_length: req.headers["content-length"],
      },
      res: { status },
      responseTime: Math.round(performance.now() - started),
      ...(keyId ? { key_id: keyId } : {}),
    },
    message,
  );
}
