/**
 * The typed client: openapi-fetch over the types generated from the API's OpenAPI document, with
 * the API key sent on every request. Paths, parameters, bodies and answers are all checked by
 * TypeScript against the document the API serves at /openapi.json.
 */
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths } from "./schema.ts";

export type CollectiblesClient = Client<paths>;

export interface CollectiblesClientOptions extends Omit<ClientOptions, "baseUrl"> {
  /** Where the API listens, e.g. http://127.0.0.1:3000 (`pnpm start` prints it). */
  baseUrl: string;
  /** An API key (`ck_live_...`). */
  apiKey: string;
}

/**
 * The `Authorization` header for an API key: the key is the HTTP Basic username and the password
 * is empty, as `curl -u KEY:` sends it.
 */
export function basicAuthorization(apiKey: string): string {
  return `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
}

export function createCollectiblesClient(options: CollectiblesClientOptions): CollectiblesClient {
  const { apiKey, ...rest } = options;
  const authorization = basicAuthorization(apiKey);
  const client = createClient<paths>(rest);
  // A middleware rather than a default header, so a caller's own headers never drop the key.
  client.use({
    onRequest({ request }) {
      request.headers.set("authorization", authorization);
    },
  });
  return client;
}
