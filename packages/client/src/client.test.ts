/**
 * The client against a real API (the global setup's chain, contract, indexer and API process):
 * the README's walkthrough, every page of a list by cursor, and errors as CollectiblesApiError.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  CollectiblesApiError,
  type CollectiblesClient,
  createCollectiblesClient,
  listAll,
  paginate,
  unwrap,
} from "./index.ts";

let api: CollectiblesClient;
/** Every URL the client fetched, to see the pages it asked for. */
const fetched: URL[] = [];

beforeAll(() => {
  api = createCollectiblesClient({
    baseUrl: inject("apiUrl"),
    apiKey: inject("apiKey"),
    fetch: (request) => {
      fetched.push(new URL(request.url));
      return fetch(request);
    },
  });
});

async function newOrganization(name: string) {
  return (await unwrap(api.POST("/organizations", { body: { name } }))).data;
}

/** What `promise` rejected with, failing the test when it resolved. */
async function rejectionOf(promise: Promise<unknown>): Promise<CollectiblesApiError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CollectiblesApiError);
  return error as CollectiblesApiError;
}

describe("the README walkthrough through the client", () => {
  it("creates an organization, a user and a collectible of 3, claims it to sold_out and lists the claims", async () => {
    const org = await newOrganization("Acme");
    const { data: ada } = await unwrap(
      api.POST("/users", {
        body: { organization_id: org.id, email: "ada@example.com", name: "Ada" },
      }),
    );
    expect(ada).toMatchObject({ organization_id: org.id, email: "ada@example.com" });

    const created = await api.POST("/collectibles", {
      body: {
        organization_id: org.id,
        name: "Moon Rocket",
        description: "Our first edition",
        artwork: "https://example.com/rocket.png",
        mime_type: "image/png",
        total_count: 3,
        creator_id: ada.id,
      },
    });
    expect(created.response.status).toBe(201);
    const rocket = (await unwrap(created)).data;
    expect(rocket).toMatchObject({ status: "confirmed", total_count: 3, available_count: 3 });

    const first = await unwrap(
      api.POST("/claims", { body: { collectible_id: rocket.id, holder_id: ada.id } }),
    );
    expect(first.data).toMatchObject({ holder_id: ada.id, edition: 1, status: "confirmed" });

    for (const [who, edition] of [
      ["bob", 2],
      ["carol", 3],
    ] as const) {
      const claim = await unwrap(
        api.POST("/claims", {
          params: { header: { "idempotency-key": `client-test-${who}` } },
          body: { collectible_id: rocket.id, email: `${who}@example.com` },
        }),
      );
      expect(claim.data).toMatchObject({ edition, status: "confirmed" });
    }
    // The same Idempotency-Key and body answer the first answer again.
    const replay = await api.POST("/claims", {
      params: { header: { "idempotency-key": "client-test-bob" } },
      body: { collectible_id: rocket.id, email: "bob@example.com" },
    });
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.data?.data.edition).toBe(2);

    const soldOut = await rejectionOf(
      unwrap(
        api.POST("/claims", { body: { collectible_id: rocket.id, email: "dave@example.com" } }),
      ),
    );
    expect(soldOut).toMatchObject({ status: 409, code: "sold_out" });
    expect(soldOut.message).toContain("sold out");

    const claims = await unwrap(
      api.GET("/claims", { params: { query: { collectible_id: rocket.id } } }),
    );
    expect(claims.pagination).toMatchObject({ page: 1, count: 3, next_cursor: null });
    expect(claims.data.map((c) => [c.edition, c.status])).toEqual([
      [1, "confirmed"],
      [2, "confirmed"],
      [3, "confirmed"],
    ]);
    const after = await unwrap(
      api.GET("/collectibles/{id}", { params: { path: { id: rocket.id } } }),
    );
    expect(after.data).toMatchObject({ claimed_count: 3, available_count: 0 });
  });
});

describe("pagination", () => {
  it("listAll follows next_cursor over every page and yields each item once, oldest first", async () => {
    const org = await newOrganization("Many users");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { data } = await unwrap(
        api.POST("/users", { body: { organization_id: org.id, email: `u${i}@example.com` } }),
      );
      ids.push(data.id);
    }
    fetched.length = 0;
    const seen: string[] = [];
    for await (const user of listAll(api, "/users", { organization_id: org.id, limit: 2 })) {
      seen.push(user.id);
    }
    expect(seen).toEqual(ids);
    // Three pages of 2, 2 and 1: the first without a cursor, the others with the one given.
    const asked = fetched.filter((url) => url.pathname === "/users");
    expect(asked).toHaveLength(3);
    expect(asked.map((url) => url.searchParams.has("cursor"))).toEqual([false, true, true]);
    expect(asked.every((url) => !url.searchParams.has("page"))).toBe(true);
  });

  it("paginate takes any page call, typed by it, and stops early when the loop does", async () => {
    const org = await newOrganization("Early stop");
    for (let i = 0; i < 4; i++) {
      await unwrap(
        api.POST("/users", { body: { organization_id: org.id, email: `e${i}@example.com` } }),
      );
    }
    fetched.length = 0;
    const emails: string[] = [];
    for await (const user of paginate((cursor) =>
      api.GET("/users", { params: { query: { organization_id: org.id, limit: 1, cursor } } }),
    )) {
      emails.push(user.email);
      if (emails.length === 2) break;
    }
    expect(emails).toEqual(["e0@example.com", "e1@example.com"]);
    expect(fetched.filter((url) => url.pathname === "/users")).toHaveLength(2);
  });

  it("a cursor the API did not give throws validation_error naming the cursor from the iterator", async () => {
    const error = await rejectionOf(
      (async () => {
        for await (const _ of paginate(() =>
          api.GET("/users", { params: { query: { cursor: "not-a-cursor" } } }),
        )) {
          // unreachable: the first page already fails
        }
      })(),
    );
    expect(error).toMatchObject({ status: 400, code: "validation_error" });
    expect(error.details).toEqual([
      expect.objectContaining({ field: "cursor", code: "invalid_cursor" }),
    ]);
  });
});

describe("errors", () => {
  it("an unknown id throws 404 with the API's code and the request id", async () => {
    const error = await rejectionOf(
      unwrap(api.GET("/users/{id}", { params: { path: { id: randomUUID() } } })),
    );
    expect(error).toMatchObject({ status: 404, code: "user_not_found" });
    expect(error.requestId).toMatch(/.+/);
  });

  it("a malformed body throws 400 validation_error naming each field in details", async () => {
    const org = await newOrganization("Validated");
    const error = await rejectionOf(
      unwrap(api.POST("/users", { body: { organization_id: org.id, email: "not an email" } })),
    );
    expect(error).toMatchObject({ status: 400, code: "validation_error" });
    expect(error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: "email" })]),
    );
  });

  it("without unwrap the error is returned, typed as the API's error body", async () => {
    const { data, error, response } = await api.GET("/collectibles/{id}", {
      params: { path: { id: randomUUID() } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.error.code).toBe("collectible_not_found");
  });

  it("a wrong key throws 401", async () => {
    const stranger = createCollectiblesClient({
      baseUrl: inject("apiUrl"),
      apiKey: "ck_live_notAKeyAnyoneWasGiven000",
    });
    const error = await rejectionOf(unwrap(stranger.GET("/organizations")));
    expect(error.status).toBe(401);
  });
});
