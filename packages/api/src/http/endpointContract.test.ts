/**
 * The OpenAPI document against what the API really answers: every declared endpoint is mounted
 * and documented, and the refusals of the shared middleware (no key, bad input, wrong content
 * type, too large, a reused Idempotency-Key, rate limit, wrong method) give only statuses and
 * headers the document lists for that endpoint. Every other test file holds its answers against
 * the document too (`test/testApp.ts`).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../routes/endpoints.ts";
import { startTestApp, type TestApp, type TestServer } from "../test/testApp.ts";
import type { EndpointSpec } from "./endpoint.ts";
import { notAllowedSpecs } from "./methodNotAllowed.ts";

const endpointSpecs = endpoints.map((endpoint) => endpoint.spec);

let t: TestApp;
let limited: TestServer;
beforeAll(async () => {
  t = await startTestApp();
  limited = await t.startSibling({ env: { RATE_LIMIT_MAX: "1", RATE_LIMIT_WINDOW_MS: "60000" } });
});
afterAll(() => t.close());

const pathWith = (spec: EndpointSpec, value: (name: string) => string) =>
  spec.path.replace(/\{(\w+)\}/g, (_, name: string) => value(name));

interface Probe {
  why: string;
  server?: TestServer;
  method?: string;
  path?: string;
  options?: Parameters<TestServer["call"]>[2];
}

/** Requests each middleware refuses, for this endpoint. */
function probesOf(spec: EndpointSpec): Probe[] {
  const path = pathWith(spec, () => randomUUID());
  const probes: Probe[] = [
    { why: "a well-formed request", options: spec.body ? { json: {} } : {} },
    { why: "a malformed percent-encoding", path: `${path}%E0%A4%A` },
  ];
  if (spec.params) probes.push({ why: "a bad path parameter", path: pathWith(spec, () => "x") });
  if (spec.query || spec.auth === "apiKey") {
    probes.push({ why: "an unknown query parameter", path: `${path}?nope=1` });
  }
  if (spec.auth === "apiKey") {
    probes.push({ why: "no key", options: { key: null } });
    probes.push({ why: "a key over its rate limit", server: limited });
    probes.push({ why: "again over the rate limit", server: limited });
  }
  if (spec.body) {
    probes.push(
      { why: "a body that is not an object", options: { json: [] } },
      {
        why: "a body in another content type",
        options: { body: "x", headers: { "content-type": "text/plain" } },
      },
      { why: "a body over the limit", options: { json: { name: "x".repeat(14_000_000) } } },
    );
  }
  if (spec.idempotent) {
    const key = randomUUID();
    probes.push(
      {
        why: "a first Idempotency-Key",
        options: { json: { a: 1 }, headers: { "idempotency-key": key } },
      },
      {
        why: "a reused Idempotency-Key",
        options: { json: { a: 2 }, headers: { "idempotency-key": key } },
      },
    );
  }
  return probes;
}

describe("every declared endpoint", () => {
  it("is mounted with a handler, once, and listed in the document", async () => {
    expect(new Set(endpointSpecs).size).toBe(endpointSpecs.length);
    const document = (await t.call("GET", "/openapi.json", { key: null })).body;
    const documented = Object.entries(document.paths as Record<string, object>).flatMap(
      ([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`),
    );
    // Beside them, the 405 of each method a path does not take (its own test is below).
    const described = [...endpointSpecs, ...notAllowedSpecs(endpointSpecs)];
    expect(documented.sort()).toEqual(described.map((s) => `${s.method} ${s.path}`).sort());
    const ids = Object.values(document.paths as Record<string, Record<string, object>>).flatMap(
      (operations) =>
        Object.values(operations).map((op) => (op as { operationId: string }).operationId),
    );
    expect(ids.sort()).toEqual(described.map((s) => s.operationId).sort());
  });

  it("answers the middleware's refusals with only the statuses and headers the document lists", async () => {
    const seen = new Set<number>();
    for (const spec of endpointSpecs) {
      for (const probe of probesOf(spec)) {
        const server = probe.server ?? t;
        const res = await server.call(
          probe.method ?? spec.method.toUpperCase(),
          probe.path ?? pathWith(spec, () => randomUUID()),
          probe.options,
        );
        expect(res.status, `${spec.operationId}: ${probe.why}`).toBeLessThan(500);
        seen.add(res.status);
      }
    }
    // The probes did reach every refusal the shared middleware can give.
    for (const status of [400, 401, 413, 415, 422, 429]) expect(seen).toContain(status);
    expect(t.undocumentedAnswers).toEqual([]);
  }, 120_000);

  it("answers a method a path does not declare with 405 and Allow", async () => {
    const res = await t.call("PUT", "/claims");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, POST, HEAD");
    expect(res.body.error.code).toBe("method_not_allowed");
    const image = await t.call("DELETE", `/images/${randomUUID()}/large.webp`, { key: null });
    expect(image.headers.get("allow")).toBe("GET, HEAD");
  });

  it("documents each path's 405 for every method it does not take, with the Allow it answers", async () => {
    const document = (await t.call("GET", "/openapi.json", { key: null })).body;
    type Response = { description: string; headers: object };
    type Operation = { summary: string; responses: Record<string, Response | { $ref: string }> };
    const paths = document.paths as Record<string, Record<string, Operation>>;
    const resolve = (response: Response | { $ref: string } | undefined) =>
      response && "$ref" in response
        ? (document.components.responses[response.$ref.split("/").at(-1) ?? ""] as Response)
        : response;
    let checked = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const method of ["get", "put", "post", "patch", "delete"]) {
        if (endpointSpecs.some((spec) => spec.path === path && spec.method === method)) continue;
        const where = `${method.toUpperCase()} ${path}`;
        const operation = item[method];
        const notAllowed = resolve(operation?.responses["405"]);
        expect(notAllowed, `${where} is not in the document`).toBeDefined();
        expect(Object.keys(notAllowed?.headers ?? {}), where).toContain("Allow");
        const res = await t.call(
          method.toUpperCase(),
          path.replace(/\{\w+\}/g, () => randomUUID()),
          { key: null },
        );
        expect(res.status, where).toBe(405);
        expect(res.body.error.code, where).toBe("method_not_allowed");
        expect(operation?.summary, where).toContain(`takes ${res.headers.get("allow")}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(t.undocumentedAnswers).toEqual([]);
  });
});

describe("the document", () => {
  it("publishes only patterns any OpenAPI tool can run, each matching its example", async () => {
    const document = (await t.call("GET", "/openapi.json", { key: null })).body;
    const patterns: { pattern: string; example?: unknown }[] = [];
    const stack: unknown[] = [document];
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      if (node === null || typeof node !== "object") continue;
      const schema = node as { pattern?: unknown; example?: unknown };
      if (typeof schema.pattern === "string") {
        patterns.push({ pattern: schema.pattern, example: schema.example });
      }
      stack.push(...Object.values(node));
    }
    expect(patterns.length).toBeGreaterThan(3);
    for (const { pattern, example } of patterns) {
      // A JavaScript flag written into the string (`.../i`) makes a pattern nothing matches.
      expect(pattern, pattern).not.toMatch(/\/[dgimsuvy]+$/);
      const regex = new RegExp(pattern, "u");
      if (typeof example === "string") expect(regex.test(example), pattern).toBe(true);
    }
  });

  it("documents every header on the answers that carry it", async () => {
    const document = (await t.call("GET", "/openapi.json", { key: null })).body;
    const createClaim = document.paths["/claims"].post.responses;
    expect(Object.keys(createClaim["201"].headers)).toEqual(
      expect.arrayContaining(["Location", "X-Request-Id", "RateLimit", "Idempotent-Replayed"]),
    );
    expect(Object.keys(createClaim["429"].headers)).toContain("Retry-After");
    expect(Object.keys(createClaim["401"].headers)).toContain("WWW-Authenticate");
    expect(Object.keys(createClaim)).toEqual(
      expect.arrayContaining(["400", "401", "404", "409", "413", "415", "422", "429", "503"]),
    );
    expect(document.paths["/health"].get.security).toEqual([]);
    expect(document.servers).toHaveLength(1);
  });
});
