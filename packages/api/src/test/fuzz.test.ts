/**
 * Property-based fuzzing (fast-check) of every organizations and users endpoint: bodies, query
 * strings, path ids, content types and Authorization headers. Whatever arrives, the API answers
 * below 500, every 4xx has the one error shape, and no answer carries a stack trace, SQL or a
 * file path. Runs are bounded (RUNS per property) so the file stays well under a minute.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bodies,
  encodePath,
  expectWellFormed,
  fuzzCreates,
  fuzzReads,
  headerText,
  pathIds,
} from "./fuzzing.ts";
import { startTestApp, type TestApp } from "./testApp.ts";

const RUNS = 100;
const TIMEOUT = 120_000;

let t: TestApp;
let org: { id: string };
let user: { id: string };

beforeAll(async () => {
  // Hundreds of requests per property: keep the per-key rate limit out of the way.
  t = await startTestApp({ env: { RATE_LIMIT_MAX: "1000000" } });
  org = (await t.call("POST", "/organizations", { json: { name: "Fuzz Inc" } })).body.data;
  user = (
    await t.call("POST", "/users", {
      json: { organization_id: org.id, email: "fuzz@example.com" },
    })
  ).body.data;
});
afterAll(() => t.close());

const ORG_FIELDS = [
  "name",
  "description",
  "parent_id",
  "external_id",
  "logo",
  "cover",
  "wallet_address",
];
const USER_FIELDS = ["organization_id", "email", "name", "external_id", "wallet_address"];

describe.each([
  {
    resource: "/organizations",
    fields: ORG_FIELDS,
    queryKeys: ["parent_id", "external_id", "wallet_address"],
  },
  {
    resource: "/users",
    fields: USER_FIELDS,
    queryKeys: ["organization_id", "external_id", "email", "wallet_address"],
  },
])("$resource under fuzzed input", ({ resource, fields, queryKeys }) => {
  const realId = () => (resource === "/users" ? user.id : org.id);
  const extra = () => (resource === "/users" ? { organization_id: org.id } : {});

  fuzzCreates(() => t, { resource, body: bodies(fields, extra), runs: RUNS, timeout: TIMEOUT });

  fuzzReads(() => t, { resource, queryKeys, realId, runs: RUNS, timeout: TIMEOUT });

  it(
    `PATCH ${resource}/{id} never answers 5xx for any id and body`,
    async () => {
      await fc.assert(
        fc.asyncProperty(pathIds(realId), bodies(fields), async (id, body) => {
          const res = await t.call("PATCH", `${resource}/${encodePath(id)}`, {
            json: body,
          });
          expectWellFormed(res, `PATCH ${resource}/${id} ${JSON.stringify(body)}`);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    `DELETE ${resource}/{id} answers 404 or 400 in the error shape for ids that name nothing`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc
            .oneof(fc.uuid(), fc.string({ maxLength: 40 }))
            .filter((id) => id !== org.id && id !== user.id),
          async (id) => {
            const res = await t.call("DELETE", `${resource}/${encodePath(id)}`);
            expectWellFormed(res, `DELETE ${resource}/${id}`);
            expect([400, 404, 405]).toContain(res.status);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

describe("authentication under fuzzed Authorization headers", () => {
  const authorizations = fc.oneof(
    headerText,
    headerText.map((s) => `Basic ${s}`),
    headerText.map((s) => `Bearer ${s}`),
    headerText.map((s) => `Basic ${Buffer.from(s, "latin1").toString("base64")}`),
    headerText.map((s) => `Basic ${Buffer.from(`${s}:`, "latin1").toString("base64")}`),
    headerText.map((s) => `Basic ${Buffer.from(`ck_live_${s}:`, "latin1").toString("base64")}`),
    fc.constantFrom(
      "Basic",
      "Basic ",
      "Bearer",
      "Basic ====",
      "Basic Og==",
      `Basic ${Buffer.from(":").toString("base64")}`,
      `Bearer ck_live_${"x".repeat(32)}`,
      `Bearer ${"k".repeat(10_000)}`,
      "Digest username=x",
    ),
  );

  it(
    "answers 401 in the error shape with WWW-Authenticate for every key that is not ours",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          authorizations,
          fc.constantFrom("/organizations", "/users", `/organizations/${randomUUID()}`),
          async (authorization, path) => {
            const res = await t.call("GET", path, { key: null, headers: { authorization } });
            expectWellFormed(res, `GET ${path} [authorization: ${authorization.slice(0, 80)}]`);
            expect(res.status).toBe(401);
            expect(res.body.error.code).toBe("unauthorized");
            expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "never lets a mangled form of the real key in",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: 40 }),
          fc.constantFrom("x", "", " ", "\t", "0"),
          async (at, insert) => {
            const mangled = t.adminKey.slice(0, at) + insert + t.adminKey.slice(at + 1);
            fc.pre(mangled !== t.adminKey && mangled.trim() !== t.adminKey);
            const res = await t.call("GET", "/organizations", { key: mangled });
            expectWellFormed(
              res,
              `GET /organizations with a mangled key ${JSON.stringify(mangled)}`,
            );
            expect(res.status).toBe(401);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

describe("a NUL character (U+0000) in text", () => {
  // PostgreSQL cannot store NUL in text: the API refuses it at the edge.
  it(
    "answers 400 in the error shape, not 500, in a body field or a list filter",
    async () => {
      const requests: [string, string, unknown?][] = [
        ["POST", "/organizations", { name: "a\u0000b" }],
        ["PATCH", `/organizations/${org.id}`, { description: "\u0000" }],
        ["POST", "/users", { organization_id: org.id, email: "nul@example.com", name: "\u0000" }],
        ["GET", "/organizations?external_id=%00"],
        ["GET", "/users?external_id=a%00b"],
        ["GET", "/collectibles?external_id=%00"],
        ["GET", "/claims?external_id=%00"],
      ];
      for (const [method, path, json] of requests) {
        const res = await t.call(method, path, { json });
        expectWellFormed(res, `${method} ${path} ${JSON.stringify(json)}`);
        expect(res.status).toBe(400);
      }
    },
    TIMEOUT,
  );
});
