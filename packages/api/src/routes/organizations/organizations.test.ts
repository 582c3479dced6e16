import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataEnvelope, listEnvelope } from "../../schemas/common.ts";
import { Organization } from "../../schemas/organizations.ts";
import { startTestApp, type TestApp } from "../../test/testApp.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Org = { id: string; name: string; parent_id: string | null; created_at: string };

/** Comparator of ids by (created_at, id), the order every list uses. */
const byCreation = (orgs: Org[]) => {
  const at = new Map(orgs.map((o) => [o.id, o.created_at]));
  return (a: string, b: string) =>
    (at.get(a) ?? "").localeCompare(at.get(b) ?? "") || a.localeCompare(b);
};

async function createOrg(body: Record<string, unknown>, key?: string): Promise<Org> {
  const res = await t.call("POST", "/organizations", { json: body, key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe("POST /organizations", () => {
  it("answers 201 with the organization, a derived wallet and the chain id in hex", async () => {
    const res = await t.call("POST", "/organizations", {
      json: { name: "Acme", description: "Rockets", external_id: "acme-1" },
    });
    expect(res.status).toBe(201);
    const { data } = dataEnvelope(Organization).parse(res.body);
    expect(data).toMatchObject({
      name: "Acme",
      description: "Rockets",
      parent_id: null,
      external_id: "acme-1",
      blockchain_id: "0x7a69",
      logo: null,
      cover: null,
      is_active: true,
    });
    expect(data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.headers.get("location")).toBe(`/organizations/${data.id}`);
    // The wallet is one of the service's HD addresses, never index 0 (the fingerprint).
    const derived = Array.from({ length: 50 }, (_, i) => t.wallets.addressAt(i + 1));
    expect(derived).toContain(data.wallet_address);
  });

  it("gives every organization its own wallet", async () => {
    const a = await t.call("POST", "/organizations", { json: { name: "A" } });
    const b = await t.call("POST", "/organizations", { json: { name: "B" } });
    expect(a.body.data.wallet_address).not.toBe(b.body.data.wallet_address);
  });

  it("answers 400 naming an unknown field", async () => {
    const res = await t.call("POST", "/organizations", { json: { name: "X", colour: "red" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details).toEqual([
      { field: "colour", code: "unknown_field", message: "is not a known field" },
    ]);
    expect(res.body.error.message).toContain("colour");
  });

  it("answers 400 naming a field of the wrong type", async () => {
    const res = await t.call("POST", "/organizations", { json: { name: 42 } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({ field: "name", code: "invalid_type" });
  });

  it("answers 400 when name is missing or blank", async () => {
    const missing = await t.call("POST", "/organizations", { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([
      { field: "name", code: "required", message: "is required" },
    ]);
    const blank = await t.call("POST", "/organizations", { json: { name: "   " } });
    expect(blank.status).toBe(400);
    expect(blank.body.error.details[0].field).toBe("name");
  });

  it("answers 400 when a wallet_address is sent: the service assigns it", async () => {
    const res = await t.call("POST", "/organizations", {
      json: { name: "X", wallet_address: "0x5B38Da6a701c568545dCfcB03FcB875f56beddC4" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      expect.objectContaining({ field: "wallet_address", code: "not_writable" }),
    ]);
  });

  it("answers 400 for a body that is not valid JSON", async () => {
    const res = await t.call("POST", "/organizations", {
      body: '{"name": ',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({ field: "body", code: "invalid_json" });
  });

  it("answers 400 for a JSON body that is not an object", async () => {
    const res = await t.call("POST", "/organizations", { json: ["name"] });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe("body");
  });

  it("answers 400 naming parent_id when it is not a uuid", async () => {
    const res = await t.call("POST", "/organizations", {
      json: { name: "X", parent_id: "not-a-uuid" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe("parent_id");
  });

  it("answers 404 when parent_id names no organization", async () => {
    const res = await t.call("POST", "/organizations", {
      json: { name: "X", parent_id: randomUUID() },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("parent_not_found");
    expect(res.body.error.details[0].field).toBe("parent_id");
  });

  it("answers 415 for a body in another content type", async () => {
    const res = await t.call("POST", "/organizations", {
      body: "name=X",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe("unsupported_media_type");
  });

  it("answers 413 for a JSON body over the cap", async () => {
    const server = await t.startSibling({ env: { MAX_IMAGE_BYTES: "2048" } });
    const res = await server.call("POST", "/organizations", {
      json: { name: "x".repeat(200_000) },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
  });

  it("answers 409 for an external_id already used under the same parent", async () => {
    const parent = await createOrg({ name: "Parent", external_id: "dup-parent" });
    await createOrg({ name: "C1", parent_id: parent.id, external_id: "dup" });
    const res = await t.call("POST", "/organizations", {
      json: { name: "C2", parent_id: parent.id, external_id: "dup" },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("duplicate_external_id");
    expect(res.body.error.details[0].field).toBe("external_id");
    // Top-level organizations share one namespace too.
    const top = await t.call("POST", "/organizations", {
      json: { name: "Again", external_id: "dup-parent" },
    });
    expect(top.status).toBe(409);
  });

  it("accepts the same external_id under different parents", async () => {
    const p1 = await createOrg({ name: "P1" });
    const p2 = await createOrg({ name: "P2" });
    await createOrg({ name: "C", parent_id: p1.id, external_id: "shared" });
    await createOrg({ name: "C", parent_id: p2.id, external_id: "shared" });
  });
});

describe("GET /organizations/:id", () => {
  it("answers 200 with the organization", async () => {
    const org = await createOrg({ name: "Findable" });
    const res = await t.call("GET", `/organizations/${org.id}`);
    expect(res.status).toBe(200);
    expect(dataEnvelope(Organization).parse(res.body).data).toEqual(org);
  });

  it("answers 404 for an unknown id", async () => {
    const res = await t.call("GET", `/organizations/${randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("organization_not_found");
  });

  it("answers 400 naming id when it is not a uuid", async () => {
    const res = await t.call("GET", "/organizations/123");
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe("id");
  });
});

describe("GET /organizations", () => {
  let parent: Org;
  const children: Org[] = [];

  beforeAll(async () => {
    parent = await createOrg({ name: "Pager" });
    for (let i = 0; i < 5; i++) {
      children.push(
        await createOrg({ name: `Child ${i}`, parent_id: parent.id, external_id: `child-${i}` }),
      );
    }
  });

  const page = (query: string) => t.call("GET", `/organizations?parent_id=${parent.id}&${query}`);

  it("answers pages with count, pages and a last partial page", async () => {
    const first = await page("limit=2&page=1");
    expect(first.status).toBe(200);
    listEnvelope(Organization).parse(first.body);
    expect(first.body.pagination).toEqual({ page: 1, size: 2, pages: 3, count: 5 });
    expect(first.body.data).toHaveLength(2);
    const last = await page("limit=2&page=3");
    expect(last.body.pagination).toEqual({ page: 3, size: 2, pages: 3, count: 5 });
    expect(last.body.data).toHaveLength(1);
  });

  it("answers an empty page past the end with the true count", async () => {
    const res = await page("limit=2&page=4");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pagination: { page: 4, size: 2, pages: 3, count: 5 }, data: [] });
  });

  it("orders by created_at then id, so pages never overlap or skip", async () => {
    const ids: string[] = [];
    for (let p = 1; p <= 3; p++) {
      ids.push(...(await page(`limit=2&page=${p}`)).body.data.map((o: Org) => o.id));
    }
    const expected = [...children]
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
      .map((o) => o.id);
    expect(ids).toEqual(expected);
  });

  it("defaults to page 1 of 20", async () => {
    const res = await page("");
    expect(res.body.pagination).toEqual({ page: 1, size: 20, pages: 1, count: 5 });
  });

  it("answers pages = 0 when nothing matches", async () => {
    const res = await t.call("GET", "/organizations?external_id=no-such-thing");
    expect(res.body).toEqual({ pagination: { page: 1, size: 20, pages: 0, count: 0 }, data: [] });
  });

  it("answers 400 naming limit or page when out of range or not a number", async () => {
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=abc", "limit"],
      ["limit=2.5", "limit"],
      ["page=0", "page"],
      ["page=-1", "page"],
      ["page=x", "page"],
    ]) {
      const res = await t.call("GET", `/organizations?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.details[0].field, query).toBe(field);
    }
    expect((await t.call("GET", "/organizations?limit=100")).status).toBe(200);
  });

  it("answers 400 for an unknown query parameter or a repeated one", async () => {
    const unknown = await t.call("GET", "/organizations?parentid=x");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0]).toMatchObject({
      field: "parentid",
      code: "unknown_field",
    });
    const repeated = await t.call("GET", "/organizations?page=1&page=2");
    expect(repeated.status).toBe(400);
    expect(repeated.body.error.details[0].field).toBe("page");
  });

  it("walks every item exactly once for any page size", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 7 }), async (limit) => {
        const seen: string[] = [];
        const first = await page(`limit=${limit}`);
        expect(first.body.pagination.pages).toBe(Math.ceil(5 / limit));
        for (let p = 1; p <= first.body.pagination.pages; p++) {
          const res = await page(`limit=${limit}&page=${p}`);
          expect(res.body.data.length).toBe(p < Math.ceil(5 / limit) ? limit : 5 - (p - 1) * limit);
          seen.push(...res.body.data.map((o: Org) => o.id));
        }
        expect(seen).toEqual(children.map((c) => c.id).sort(byCreation(children)));
      }),
      { numRuns: 7 },
    );
  });

  it("filters by external_id, parent_id and wallet_address", async () => {
    const child = children[3] as Org & { wallet_address: string };
    const byExternal = await t.call("GET", "/organizations?external_id=child-3");
    expect(byExternal.body.data.map((o: Org) => o.id)).toEqual([child.id]);
    const byWallet = await t.call("GET", `/organizations?wallet_address=${child.wallet_address}`);
    expect(byWallet.body.data.map((o: Org) => o.id)).toEqual([child.id]);
    const byParent = await page("limit=100");
    expect(byParent.body.data.every((o: Org) => o.parent_id === parent.id)).toBe(true);
  });
});

describe("PATCH /organizations/:id", () => {
  it("changes only the fields sent", async () => {
    const org = await createOrg({ name: "Old", description: "keep", external_id: "patch-me" });
    const res = await t.call("PATCH", `/organizations/${org.id}`, { json: { name: "New" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: "New",
      description: "keep",
      external_id: "patch-me",
    });
    expect(res.body.data.updated_at >= res.body.data.created_at).toBe(true);
    const cleared = await t.call("PATCH", `/organizations/${org.id}`, {
      json: { description: null, external_id: null },
    });
    expect(cleared.body.data).toMatchObject({ description: null, external_id: null });
  });

  it("moves an organization under another one", async () => {
    const a = await createOrg({ name: "A" });
    const b = await createOrg({ name: "B" });
    const res = await t.call("PATCH", `/organizations/${b.id}`, { json: { parent_id: a.id } });
    expect(res.status).toBe(200);
    expect(res.body.data.parent_id).toBe(a.id);
    const back = await t.call("PATCH", `/organizations/${b.id}`, { json: { parent_id: null } });
    expect(back.body.data.parent_id).toBeNull();
  });

  it("answers 422 when the new parent would make a cycle", async () => {
    const root = await createOrg({ name: "Root" });
    const child = await createOrg({ name: "Child", parent_id: root.id });
    const grandchild = await createOrg({ name: "Grandchild", parent_id: child.id });
    for (const parentId of [grandchild.id, child.id, root.id]) {
      const res = await t.call("PATCH", `/organizations/${root.id}`, {
        json: { parent_id: parentId },
      });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("parent_cycle");
      expect(res.body.error.details[0].field).toBe("parent_id");
    }
    expect((await t.call("GET", `/organizations/${root.id}`)).body.data.parent_id).toBeNull();
  });

  it("lets only one of two concurrent opposite moves succeed, so no cycle can form", async () => {
    for (let round = 0; round < 3; round++) {
      const a = await createOrg({ name: `Race A${round}` });
      const b = await createOrg({ name: `Race B${round}` });
      const [ab, ba] = await Promise.all([
        t.call("PATCH", `/organizations/${a.id}`, { json: { parent_id: b.id } }),
        t.call("PATCH", `/organizations/${b.id}`, { json: { parent_id: a.id } }),
      ]);
      expect([ab.status, ba.status].sort()).toEqual([200, 422]);
    }
  });

  it("answers 409 when the new external_id is taken under the same parent", async () => {
    await createOrg({ name: "Taken", external_id: "taken-id" });
    const other = await createOrg({ name: "Other" });
    const res = await t.call("PATCH", `/organizations/${other.id}`, {
      json: { external_id: "taken-id" },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("duplicate_external_id");
  });

  it("answers 400 for unknown fields and wallet_address, 404 for an unknown id", async () => {
    const org = await createOrg({ name: "P" });
    const unknown = await t.call("PATCH", `/organizations/${org.id}`, { json: { nam: "typo" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].field).toBe("nam");
    const wallet = await t.call("PATCH", `/organizations/${org.id}`, {
      json: { wallet_address: "0x5B38Da6a701c568545dCfcB03FcB875f56beddC4" },
    });
    expect(wallet.status).toBe(400);
    const missing = await t.call("PATCH", `/organizations/${randomUUID()}`, {
      json: { name: "x" },
    });
    expect(missing.status).toBe(404);
  });

  it("answers 404 when the new parent does not exist", async () => {
    const org = await createOrg({ name: "Orphan" });
    const res = await t.call("PATCH", `/organizations/${org.id}`, {
      json: { parent_id: randomUUID() },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("parent_not_found");
  });
});

describe("DELETE /organizations/:id", () => {
  it("answers {data:{id, deleted:true}}; the organization then answers 404 and leaves lists", async () => {
    const org = await createOrg({ name: "Doomed", external_id: "doomed" });
    const res = await t.call("DELETE", `/organizations/${org.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: org.id, deleted: true } });
    expect((await t.call("GET", `/organizations/${org.id}`)).status).toBe(404);
    const list = await t.call("GET", "/organizations?external_id=doomed");
    expect(list.body.pagination.count).toBe(0);
    expect((await t.call("DELETE", `/organizations/${org.id}`)).status).toBe(404);
    expect(
      (await t.call("PATCH", `/organizations/${org.id}`, { json: { name: "zombie" } })).status,
    ).toBe(404);
  });

  it("frees the external_id for a new organization", async () => {
    const org = await createOrg({ name: "First", external_id: "reusable" });
    await t.call("DELETE", `/organizations/${org.id}`);
    await createOrg({ name: "Second", external_id: "reusable" });
  });

  it("answers 409 while active sub-organizations or users remain", async () => {
    const parent = await createOrg({ name: "Busy" });
    const child = await createOrg({ name: "Kid", parent_id: parent.id });
    const res = await t.call("DELETE", `/organizations/${parent.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("organization_not_empty");
    expect(res.body.error.details[0]).toMatchObject({ organizations: 1, users: 0 });

    await t.call("DELETE", `/organizations/${child.id}`);
    const user = await t.call("POST", "/users", {
      json: { organization_id: parent.id, email: "member@example.com" },
    });
    expect(user.status).toBe(201);
    const withUser = await t.call("DELETE", `/organizations/${parent.id}`);
    expect(withUser.status).toBe(409);
    expect(withUser.body.error.details[0]).toMatchObject({ organizations: 0, users: 1 });

    await t.call("DELETE", `/users/${user.body.data.id}`);
    expect((await t.call("DELETE", `/organizations/${parent.id}`)).status).toBe(200);
  });

  it("answers 404 for a deleted parent when creating a child", async () => {
    const org = await createOrg({ name: "Gone" });
    await t.call("DELETE", `/organizations/${org.id}`);
    const res = await t.call("POST", "/organizations", { json: { name: "X", parent_id: org.id } });
    expect(res.status).toBe(404);
  });
});

describe("tenant isolation between scoped keys", () => {
  let tenantA: Org;
  let tenantB: Org;
  let keyA: string;
  let keyB: string;
  let childOfA: Org;

  beforeAll(async () => {
    tenantA = await createOrg({ name: "Tenant A" });
    tenantB = await createOrg({ name: "Tenant B" });
    keyA = await t.createKey(tenantA.id);
    keyB = await t.createKey(tenantB.id);
    childOfA = await createOrg({ name: "A's child", parent_id: tenantA.id }, keyA);
  });

  it("lists only the key's organization and its descendants", async () => {
    const grandchild = await createOrg({ name: "A's grandchild", parent_id: childOfA.id }, keyA);
    const listA = await t.call("GET", "/organizations?limit=100", { key: keyA });
    expect(listA.body.data.map((o: Org) => o.id).sort()).toEqual(
      [tenantA.id, childOfA.id, grandchild.id].sort(),
    );
    expect(listA.body.pagination.count).toBe(3);
    const listB = await t.call("GET", "/organizations", { key: keyB });
    expect(listB.body.data.map((o: Org) => o.id)).toEqual([tenantB.id]);
  });

  it("answers 404 for another tenant's organization on every verb", async () => {
    const path = `/organizations/${tenantB.id}`;
    expect((await t.call("GET", path, { key: keyA })).status).toBe(404);
    expect((await t.call("PATCH", path, { key: keyA, json: { name: "pwned" } })).status).toBe(404);
    expect((await t.call("DELETE", path, { key: keyA })).status).toBe(404);
    expect((await t.call("GET", path)).body.data.name).toBe("Tenant B");
  });

  it("answers 404 when placing an organization under another tenant", async () => {
    const create = await t.call("POST", "/organizations", {
      key: keyA,
      json: { name: "Intruder", parent_id: tenantB.id },
    });
    expect(create.status).toBe(404);
    expect(create.body.error.code).toBe("parent_not_found");
    const move = await t.call("PATCH", `/organizations/${childOfA.id}`, {
      key: keyA,
      json: { parent_id: tenantB.id },
    });
    expect(move.status).toBe(404);
  });

  it("answers 422 when a scoped key would create or move an organization to the top level", async () => {
    const create = await t.call("POST", "/organizations", { key: keyA, json: { name: "Top" } });
    expect(create.status).toBe(422);
    expect(create.body.error.code).toBe("parent_required");
    const move = await t.call("PATCH", `/organizations/${childOfA.id}`, {
      key: keyA,
      json: { parent_id: null },
    });
    expect(move.status).toBe(422);
  });

  it("does not reveal another tenant's organization through filters", async () => {
    const res = await t.call("GET", `/organizations?parent_id=${tenantB.id}`, { key: keyA });
    expect(res.body.pagination.count).toBe(0);
  });
});
