/** Handlers of the operations endpoints: public ones, and /metrics for an admin key. */
import { imageNotFound } from "../../errorCatalogue.ts";
import { implement } from "../../http/endpoint.ts";
import { IMAGE_KEY_PATTERN } from "../../images/imageStorage.ts";
import { requireAdmin } from "../../services/apiKeys.ts";
import { checkReadiness } from "../../services/readiness.ts";
import * as routes from "./operations.routes.ts";

/** Served so a browser never interprets an image as anything but an image. */
const IMAGE_HEADERS = {
  "Cache-Control": "public, max-age=31536000, immutable",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Cross-Origin-Resource-Policy": "cross-origin",
};

export const operationEndpoints = [
  implement(routes.getHealth, async () => ({ status: 200, body: { data: { status: "ok" } } })),

  implement(routes.getReadiness, async (_input, deps) => {
    const { status, checks } = await checkReadiness(deps.readiness);
    const headers = { "Cache-Control": "no-store" };
    if (status !== "unavailable")
      return { status: 200, body: { data: { status, checks } }, headers };
    const names = checks.filter((c) => c.status === "down").map((c) => c.name);
    const message = `Unavailable: ${names.join(", ")} down`;
    return {
      status: 503,
      body: { error: { code: "not_ready", message, details: checks } },
      headers,
    };
  }),

  implement(routes.getImage, async ({ params, ifNoneMatch }, deps) => {
    // Keys are unguessable and immutable (a new upload gets a new id): the key is the ETag.
    const key = `${params.id}/${params.file}`;
    const object = IMAGE_KEY_PATTERN.test(key) ? await deps.storage.get(key) : undefined;
    if (!object) throw imageNotFound();
    const headers = { ...IMAGE_HEADERS, ETag: `"${key}"` };
    if (ifNoneMatch === headers.ETag) return { status: 304, body: undefined, headers };
    return { status: 200, body: { contentType: object.contentType, data: object.data }, headers };
  }),

  implement(routes.getMetrics, async ({ auth }, deps) => {
    requireAdmin(auth);
    const data = Buffer.from(await deps.metrics.scrape());
    const headers = { "Cache-Control": "no-store" };
    return { status: 200, body: { contentType: deps.metrics.contentType, data }, headers };
  }),

  implement(routes.getOpenApiDocument, async (_input, deps) => ({
    status: 200,
    body: deps.openApiDocument(),
  })),
];
