/**
 * Property-based fuzzing (fast-check) of the collectible, claim and image endpoints, on a real
 * chain and indexer (the claim and collectible paths only reach the database with a chain): bodies,
 * query strings, path ids, content types and methods. Whatever arrives, the API answers below 500,
 * every 4xx has the one error shape, and no answer carries a stack trace, SQL or a file path.
 * Whatever it accepted, the relayer then takes to the chain: nothing stays pending. Runs are
 * bounded (RUNS per property) so the file stays well under a minute past the chain's start.
 */
import fc from "fast-check";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ChainStack, startChainStack } from "./chainStack.ts";
import { until } from "./faults.ts";
import {
  anyValue,
  bodies,
  encodePath,
  expectWellFormed,
  fuzzCreates,
  fuzzReads,
  pathIds,
} from "./fuzzing.ts";
import { type CallResult, startTestApp, type TestApp } from "./testApp.ts";

const RUNS = 60;
const TIMEOUT = 120_000;

let stack: ChainStack;
let t: TestApp;
let org: { id: string };
let user: { id: string };
let collectible: { id: string; cover: Record<string, string> };
let claim: { id: string };
/** Collectibles and claims the fuzzing got accepted (201/202): the relayer must finish each. */
const accepted = { collectibles: new Set<string>(), claims: new Set<string>() };

beforeAll(async () => {
  stack = await startChainStack({ postgresUrl: inject("postgresUrl") });
  // Answer 202 at once (no waiting for the chain), and keep the rate limit out of the way.
  t = await startTestApp({
    env: { ...stack.env, CONFIRM_TIMEOUT_MS: "0", RATE_LIMIT_MAX: "1000000" },
  });
  org = (await t.call("POST", "/organizations", { json: { name: "Fuzz Chain" } })).body.data;
  user = (
    await t.call("POST", "/users", { json: { organization_id: org.id, email: "fz@example.com" } })
  ).body.data;
  const png = await sharp({
    create: { width: 8, height: 8, channels: 3, background: { r: 9, g: 99, b: 199 } },
  })
    .png()
    .toBuffer();
  const created = await t.call("POST", "/collectibles", {
    json: {
      organization_id: org.id,
      name: "Fuzzed",
      total_count: 100_000,
      cover: `data:image/png;base64,${png.toString("base64")}`,
    },
  });
  expect([201, 202], JSON.stringify(created.body)).toContain(created.status);
  collectible = created.body.data;
  await until("the fuzzed collectible confirmed", async () => {
    const res = await t.call("GET", `/collectibles/${collectible.id}`);
    return res.body.data.status === "confirmed" ? true : undefined;
  });
  claim = (
    await t.call("POST", "/claims", {
      json: { collectible_id: collectible.id, holder_id: user.id },
    })
  ).body.data;
}, 180_000);

afterAll(async () => {
  await t?.close();
  await stack?.stop();
});

/** Remembers what a POST created, for the "nothing stays pending" check. */
function remember(kind: "collectibles" | "claims", res: CallResult) {
  if (res.status === 201 || res.status === 202) accepted[kind].add(res.body.data.id);
}

const COLLECTIBLE_FIELDS = [
  "organization_id",
  "name",
  "description",
  "mime_type",
  "artwork",
  "cover",
  "total_count",
  "creator_id",
  "external_id",
  "claimed_count",
  "pending_count",
  "available_count",
];

/** A valid body with one field (or one more field) given any value at all. */
function mutated(valid: fc.Arbitrary<Record<string, unknown>>, fields: string[]) {
  return fc
    .tuple(valid, fc.constantFrom(...fields, "unknown", "id", "status"), anyValue)
    .map(([body, field, value]) => ({ ...body, [field]: value }));
}

/** Valid bodies, valid bodies with one bad field, and anything: the fuzzing reaches the chain. */
const validCollectible = fc.record(
  {
    organization_id: fc.constant(null).map(() => org.id),
    name: fc.string({ minLength: 1, maxLength: 200 }).filter((name) => name.trim() !== ""),
    total_count: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    description: fc.option(fc.string({ unit: "grapheme", maxLength: 300 })),
    mime_type: fc.constantFrom("image/png", "video/mp4", "model/gltf+json"),
    artwork: fc.oneof(fc.webUrl(), fc.constantFrom("ipfs://bafy/1.png", "ar://tx")),
    creator_id: fc.constant(null).map(() => user.id),
    external_id: fc.string({ minLength: 1, maxLength: 40 }).filter((id) => id.trim() !== ""),
    claimed_count: fc.constant(0),
  },
  { requiredKeys: ["organization_id", "name", "total_count"] },
);
const collectibleBodies = fc.oneof(
  { weight: 2, arbitrary: validCollectible },
  mutated(validCollectible, COLLECTIBLE_FIELDS),
  bodies(COLLECTIBLE_FIELDS, () => ({ organization_id: org.id, name: "n", total_count: 1 })),
);

const CLAIM_FIELDS = ["collectible_id", "holder_id", "email", "external_id"];
const validClaim = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(
      {
        collectible_id: fc.constant(null).map(() => collectible.id),
        email: fc.oneof(
          // Addresses the API accepts (most of them new), and any address fast-check makes.
          {
            weight: 4,
            arbitrary: fc
              .tuple(
                fc.stringMatching(/^[A-Za-z0-9_+-]{1,30}$/),
                fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}\.[a-z]{2,8}$/),
              )
              .map(([local, domain]) => `${local}@${domain}`),
          },
          { weight: 1, arbitrary: fc.emailAddress() },
        ),
        external_id: fc.string({ minLength: 1, maxLength: 40 }).filter((id) => id.trim() !== ""),
      },
      { requiredKeys: ["collectible_id", "email"] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      collectible_id: fc.constant(null).map(() => collectible.id),
      holder_id: fc.constant(null).map(() => user.id),
    }),
  },
);
const claimBodies = fc.oneof(
  { weight: 3, arbitrary: validClaim },
  mutated(validClaim, CLAIM_FIELDS),
  bodies(CLAIM_FIELDS, () => ({ collectible_id: collectible.id })),
);

describe.each([
  {
    resource: "/collectibles" as const,
    body: collectibleBodies,
    queryKeys: ["organization_id", "creator_id", "external_id"],
    realId: () => collectible.id,
  },
  {
    resource: "/claims" as const,
    body: claimBodies,
    queryKeys: ["holder_id", "collectible_id", "external_id"],
    realId: () => claim.id,
  },
])("$resource under fuzzed input", ({ resource, body, queryKeys, realId }) => {
  const kind = resource === "/claims" ? "claims" : "collectibles";

  fuzzCreates(() => t, {
    resource,
    body,
    runs: RUNS,
    timeout: TIMEOUT,
    onAnswer: (res) => remember(kind, res),
    refusesRawBodies: true,
  });

  fuzzReads(() => t, { resource, queryKeys, realId, runs: RUNS, timeout: TIMEOUT });

  it(
    `${resource}/{id} answers 404 or 405 in the error shape to the methods it does not serve`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom("PUT", "PATCH", "DELETE"),
          pathIds(realId),
          fc.option(anyValue),
          async (method, id, json) => {
            const res = await t.call(method, `${resource}/${encodePath(id)}`, {
              json: json ?? undefined,
            });
            expectWellFormed(res, `${method} ${resource}/${id}`);
            expect([404, 405]).toContain(res.status);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

describe("/images under fuzzed paths", () => {
  it(
    "answers the image only for a stored key, else 404 in the error shape, without a key",
    async () => {
      const stored = Object.values(collectible.cover).map((url) => new URL(url).pathname);
      const storedId = stored[0]?.split("/")[2] ?? "";
      const storedFiles = stored.map((path) => path.split("/")[3] ?? "");
      const segment = fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom(
          "..",
          "%2e%2e",
          "%2F",
          "..%2F..%2Fpackage.json",
          ...storedFiles,
          "original.svg",
          "\u0000",
          "a".repeat(300),
        ),
        fc.uuid(),
        fc.constant(storedId),
      );
      await fc.assert(
        fc.asyncProperty(segment, segment, async (id, file) => {
          const path = `/images/${encodeURIComponent(id)}/${encodeURIComponent(file)}`;
          const res = await t.call("GET", path, { key: null });
          expectWellFormed(res, `GET ${path}`);
          const isStored = stored.includes(`/images/${id}/${file}`);
          expect(res.status, path).toBe(isStored ? 200 : 404);
          if (isStored) expect(res.headers.get("content-type")).toMatch(/^image\//);
        }),
        { numRuns: RUNS },
      );
      for (const path of stored)
        expect((await t.call("GET", path, { key: null })).status).toBe(200);
    },
    TIMEOUT,
  );
});

describe("what the fuzzing got accepted", () => {
  it(
    "ends confirmed or failed on-chain: no accepted collectible or claim stays pending",
    async () => {
      console.info(
        `accepted: ${accepted.collectibles.size} collectibles, ${accepted.claims.size} claims`,
      );
      // The generators make valid bodies often enough that both kinds reach the chain.
      expect(accepted.collectibles.size).toBeGreaterThan(0);
      expect(accepted.claims.size).toBeGreaterThan(0);
      for (const [kind, ids] of Object.entries(accepted)) {
        for (const id of ids) {
          const final = await until(
            `${kind} ${id} to leave pending`,
            async () => {
              const res = await t.call("GET", `/${kind}/${id}`);
              return res.body.data.status === "pending" ? undefined : res.body.data;
            },
            { timeoutMs: 90_000 },
          );
          expect(["confirmed", "failed"]).toContain(final.status);
          expect(final.is_active).toBe(final.status === "confirmed");
        }
      }
    },
    TIMEOUT,
  );
});
