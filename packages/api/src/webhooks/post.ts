/**
 * One webhook POST: bounded in time, never following a redirect (a 3xx is an answer like any
 * other, and counts as a failure), connecting only to public addresses unless allowed.
 */
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { isPrivateAddress, publicOnlyLookup } from "./destination.ts";

export interface PostOutcome {
  statusCode: number | null;
  error: string | null;
}

export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostOutcome> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  // A literal address is connected to without a lookup, so it is checked here.
  if (!options.allowPrivate && net.isIP(host) && isPrivateAddress(host)) {
    return Promise.resolve({ statusCode: null, error: `${host} is a private address` });
  }
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      target,
      {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body).toString(),
          "user-agent": "collectibles-webhooks",
        },
        lookup: options.allowPrivate ? undefined : publicOnlyLookup,
        signal: AbortSignal.timeout(options.timeoutMs),
        agent: false,
      },
      (response) => {
        // The receiver's answer body is not kept: only its status counts.
        response.resume();
        response.on("end", () => resolve({ statusCode: response.statusCode ?? null, error: null }));
        response.on("error", (error) =>
          resolve({ statusCode: response.statusCode ?? null, error: error.message }),
        );
      },
    );
    request.on("error", (error) => {
      const timedOut = error.name === "AbortError" || error.name === "TimeoutError";
      resolve({
        statusCode: null,
        error: timedOut ? `no answer within ${options.timeoutMs} ms` : error.message,
      });
    });
    request.end(body);
  });
}
