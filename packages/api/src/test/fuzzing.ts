/**
 * The pieces of the property-based fuzz tests (fast-check): what every answer must look like
 * whatever the request was, and generators of hostile bodies, queries, path ids and headers.
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import type { CallResult, TestApp } from "./testApp.ts";

/** What a leak looks like: stack frames, file paths, driver and SQL error text. */
export const LEAKS: [string, RegExp][] = [
  ["stack frame", /\n\s+at\s|\bat [\w.<>]+ \(/],
  ["file path", /node_modules|\/src\/[\w/.-]+\.(?:ts|js)\b|\.ts:\d+|file:\/\//],
  ["drizzle query", /Failed query|params: /],
  [
    "database error",
    /syntax error at or near|violates (?:unique|foreign key|not-null|check) constraint|invalid input syntax for type|relation "|column "|duplicate key value|PostgresError|DatabaseError/i,
  ],
  ["SQL", /\bselect\s+[\w"*.,\s]+\s+from\s+"?\w+"?|\binsert into\s+"?\w|\bupdate\s+"\w+"\s+set\b/i],
];

/** The invariants every answer keeps, whatever the request was. */
export function expectWellFormed(res: CallResult, request: string): void {
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
export const anyValue = fc.oneof(
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
export function bodies(fields: string[], extra: () => Record<string, unknown> = () => ({})) {
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

/** Query strings as [key, value] pairs, so keys repeat (`limit=1&limit=2`) and nest (`a[b]`). */
export function queries(keys: string[]) {
  const key = fc.oneof(
    fc.constantFrom(...keys, "page", "limit", "page[x]", "limit[]", "sort", ""),
    fc.string({ maxLength: 10 }),
  );
  const value = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.integer().map(String),
    fc.constantFrom(
      "0",
      "1",
      "100",
      "101",
      "-1",
      "1.5",
      "1e3",
      "NaN",
      "9999999999999",
      " 1",
      "",
      "\u0000",
      "a\u0000b",
    ),
    fc.uuid(),
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 5 })
    .map((pairs) => new URLSearchParams(pairs).toString());
}

/** Path segments: real ids, other uuids, and strings that are no id at all. */
export const pathIds = (real: () => string) =>
  fc.oneof(
    fc.constant(null).map(() => real()),
    fc.uuid(),
    fc.string({ maxLength: 40 }),
    fc.constantFrom("..", "%", "%00", "null", "undefined", "00000000-0000-0000-0000-000000000000"),
    fc.constant(null).map(() => real().toUpperCase()),
  );
export const encodePath = (id: string) => encodeURIComponent(id).replaceAll(".", "%2E");

/** Raw bodies under any content type: broken JSON, multipart without parts, form data. */
export const rawRequests = fc.record({
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

export const headerText = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 60,
});

/** The read properties every resource shares: any list query string, any id in the path. */
export function fuzzReads(
  app: () => TestApp,
  options: {
    resource: string;
    queryKeys: string[];
    realId: () => string;
    runs: number;
    timeout: number;
  },
): void {
  const { resource, queryKeys, realId, runs, timeout } = options;
  it(
    `GET ${resource} never answers 5xx for any query string`,
    async () => {
      await fc.assert(
        fc.asyncProperty(queries(queryKeys), async (query) => {
          const res = await app().call("GET", `${resource}?${query}`);
          expectWellFormed(res, `GET ${resource}?${query}`);
          if (res.status === 200) expect(Array.isArray(res.body.data)).toBe(true);
        }),
        { numRuns: runs },
      );
    },
    timeout,
  );

  it(
    `GET ${resource}/{id} answers 200 or a 4xx in the error shape for any id`,
    async () => {
      await fc.assert(
        fc.asyncProperty(pathIds(realId), async (id) => {
          const res = await app().call("GET", `${resource}/${encodePath(id)}`);
          expectWellFormed(res, `GET ${resource}/${id}`);
        }),
        { numRuns: runs },
      );
    },
    timeout,
  );
}

/**
 * The create properties every resource shares: any JSON body from `body` answers below 500 in
 * the error shape (`onAnswer` sees each answer), and any raw body under any content type a 4xx.
 */
export function fuzzCreates(
  app: () => TestApp,
  options: {
    resource: string;
    body: fc.Arbitrary<unknown>;
    runs: number;
    timeout: number;
    onAnswer?: (res: CallResult) => void;
    /** Whether no raw body can make a valid create (the resource needs fields a form lacks). */
    refusesRawBodies?: boolean;
  },
): void {
  const { resource, body, runs, timeout, onAnswer, refusesRawBodies } = options;
  it(
    `POST ${resource} never answers 5xx and keeps the error shape for any JSON body`,
    async () => {
      await fc.assert(
        fc.asyncProperty(body, async (json) => {
          const res = await app().call("POST", resource, { json });
          expectWellFormed(res, `POST ${resource} ${JSON.stringify(json)}`);
          onAnswer?.(res);
        }),
        { numRuns: runs },
      );
    },
    timeout,
  );

  it(
    refusesRawBodies
      ? `POST ${resource} answers 4xx in the error shape for raw bodies under any content type`
      : `POST ${resource} never answers 5xx and keeps the error shape for raw bodies under any content type`,
    async () => {
      await fc.assert(
        fc.asyncProperty(rawRequests, async ({ contentType, body: raw }) => {
          const res = await app().call("POST", resource, {
            body: raw,
            headers: { "content-type": contentType },
          });
          expectWellFormed(res, `POST ${resource} [${contentType}] ${JSON.stringify(raw)}`);
          if (refusesRawBodies) expect(res.status).toBeGreaterThanOrEqual(400);
        }),
        { numRuns: runs },
      );
    },
    timeout,
  );
}
