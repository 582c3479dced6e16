/**
 * The HTTP server the app runs in. Node gives a client 300 s to send its request and checks
 * only every 30 s, so a body trickled a byte at a time held a connection (and its socket) for
 * minutes: here the whole request must arrive within REQUEST_TIMEOUT_MS (answered 408 and closed
 * otherwise), checked every second. The time to answer is not limited by it.
 */
import http from "node:http";
import type { Express } from "express";
import type { Env } from "../env.ts";

export function createHttpServer(app: Express, config: Pick<Env, "REQUEST_TIMEOUT_MS">) {
  return http.createServer(
    {
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      // Headers are a part of the request: they cannot be given longer than all of it.
      headersTimeout: Math.min(10_000, config.REQUEST_TIMEOUT_MS),
      connectionsCheckingInterval: 1_000,
    },
    app,
  );
}
