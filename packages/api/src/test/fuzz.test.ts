/**
 * Property-based fuzzing (fast-check) of every organizations and users endpoint: bodies, query
 * strings, path ids, content types and Authorization headers. Whatever arrives, the API answers
 * below 500, every 4xx has the one error shape, and no answer carries a stack trace, SQL or a
 * file path. Runs are bounded (RUNS per property) so the file stays well under a minute.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallResult, startTestApp, type TestApp } from "./testApp.ts";

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

/** What a leak looks like: stack frames, file paths, driver and SQL error text. */
const LEAKS: [string, RegExp][] = [
  ["stack frame", /\n\s+at\s|\bat [\w.<>]+ \(/],
  ["file path", /node_modules|\/src\/[\w/.-]+\.(?:ts|js)\b|\.ts:\d+|file:\/\//],
  ["drizzle query", /Failed query|params: /],
  [
    "database error",
    /syntax error at or near|violates (?:unique|foreign key|not-null|check) constraint|invalid input syntax for type|relation "|column "|duplicate key value|PGlite|PostgresError|DatabaseError/i,
  ],
  ["SQL", /\bselect\s+[\w"*.,\s]+\s+from\s+"?\w+"?|\binsert into\s+"?\w|\bupdate\s+"\w+"\s+set\b/i],
];

/** The invariants every answer keeps, whatever the request was. */
function expectWellFormed(res: CallResult, request: string): void {
  const context = `${request} -> ${res.status} ${res.raw.toString("utf8").slice(0, 500)}`;
  expect(res.status, context).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.headers.get("content-type"), context).toMatch(/^application\/json/);
    expect(res.body, context).toEqual({
      error: expect.objectContaining({
        code: expect.stringMatching(/^[a-z][a-z0-9_]*$/),
        message: expect.any(String),
      }),
    });
    const keys = Object.keys(res.body.error).sort();
    expect(
      keys.every((k) => ["code", "details", "message"].includes(k)),
      context,
    ).toBe(true);
    if ("details" in res.body.error)
      expect(Array.isArray(res.body.error.details), context).toBe(true);
    // Error answers are ours alone: they never carry internals.
    const text = res.raw.toString("utf8");
    for (const [what, pattern] of LEAKS)
      expect(pattern.test(text), `${what} in ${context}`).toBe(false);
  }
}

/** Values a client might send in any field: wrong types, edge strings, nested junk. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.uuid(),
  fc.constantFrom(
    "",
    " ",
    "0x5B38Da6a701c568545dCfcB03FcB875f56beddC4",
    "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
    "'; drop table users; --",
    "\u0000",
    "a".repeat(5000),
    "data:image/png;base64,iVBORw0KGgo=",
    "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=",
    "https://example.com/logo.png",
    "ada@example.com",
    "00000000-0000-0000-0000-000000000000",
    "-1",
    "1e309",
    "__proto__",
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Bodies mixing the endpoint's real fields with unknown ones, plus any JSON at all. */
function bodies(fields: string[], extra: () => Record<string, unknown> = () => ({})) {
  return fc.oneof(
    fc
      .dictionary(fc.constantFrom(...fields, "unknown", "is_active", "id", "__proto__"), anyValue, {
        maxKeys: fields.length + 2,
      })
      .map((body) => ({ ...extra(), ...body })),
    fc.dictionary(fc.constantFrom(...fields), anyValue, { maxKeys: fields.length }),
    fc.jsonValue({ maxDepth: 3 }),
  );
}

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

/** Query strings as [key, value] pairs, so keys repeat (`limit=1&limit=2`) and nest (`a[b]`). */
function queries(keys: string[]) {
  const key = fc.oneof(
    fc.constantFrom(...keys, "page", "limit", "page[x]", "limit[]", "sort", ""),
    fc.string({ maxLength: 10 }),
  );
  const value = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.integer().map(String),
    fc.constantFrom("0", "1", "100", "101", "-1", "1.5", "1e3", "NaN", "9999999999999", " 1", ""),
    fc.uuid(),
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 5 })
    .map((pairs) => new URLSearchParams(pairs).toString());
}

/** Path segments: real ids, other uuids, and strings that are no id at all. */
const pathIds = (real: () => string) =>
  fc.oneof(
    fc.constant(null).map(() => real()),
    fc.uuid(),
    fc.string({ maxLength: 40 }),
    fc.constantFrom("..", "%", "%00", "null", "undefined", "00000000-0000-0000-0000-000000000000"),
    fc.constant(null).map(() => real().toUpperCase()),
  );
const encodePath = (id: string) => encodeURIComponent(id).replaceAll(".", "%2E");

/** Raw bodies under any content type: broken JSON, multipart without parts, form data. */
const rawRequests = fc.record({
  contentType: fc.constantFrom(
    "application/json",
    "application/json; charset=utf-16",
    "text/plain",
    "multipart/form-data",
    "multipart/form-data; boundary=xyz",
    "application/x-www-form-urlencoded",
    "application/octet-stream",
  ),
  body: fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.constantFrom(
      "{",
      "[]",
      "null",
      '{"name":',
      '--xyz\r\nContent-Disposition: form-data; name="logo"; filename="a.png"\r\n\r\nnot a png\r\n--xyz--\r\n',
      '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nMulti\r\n--xyz--\r\n',
      "--xyz\r\nbroken",
    ),
  ),
});

const headerText = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 60,
});

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

  it(
    `POST ${resource} never answers 5xx and keeps the error shape for any JSON body`,
    async () => {
      await fc.assert(
        fc.asyncProperty(bodies(fields, extra), async (body) => {
          const res = await t.call("POST", resource, { json: body });
          expectWellFormed(res, `POST ${resource} ${JSON.stringify(body)}`);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    `POST ${resource} answers 4xx in the error shape for raw bodies under any content type`,
    async () => {
      await fc.assert(
        fc.asyncProperty(rawRequests, async ({ contentType, body }) => {
          const res = await t.call("POST", resource, {
            body,
            headers: { "content-type": contentType },
          });
          expectWellFormed(res, `POST ${resource} [${contentType}] ${JSON.stringify(body)}`);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    `GET ${resource} never answers 5xx for any query string`,
    async () => {
      await fc.assert(
        fc.asyncProperty(queries(queryKeys), async (query) => {
          const res = await t.call("GET", `${resource}?${query}`);
          expectWellFormed(res, `GET ${resource}?${query}`);
          if (res.status === 200) expect(Array.isArray(res.body.data)).toBe(true);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    `GET ${resource}/{id} answers 200 or a 4xx in the error shape for any id`,
    async () => {
      await fc.assert(
        fc.asyncProperty(pathIds(realId), async (id) => {
          const res = await t.call("GET", `${resource}/${encodePath(id)}`);
          expectWellFormed(res, `GET ${resource}/${id}`);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    `PATCH ${resource}/{id} never answers 5xx for any id and body`,
    async () => {
      await fc.assert(
        fc.asyncProperty(pathIds(realId), bodies(fields), async (id, body) => {
          const res = await t.call("PATCH", `${resource}/${encodePath(id)}`, { json: body });
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
