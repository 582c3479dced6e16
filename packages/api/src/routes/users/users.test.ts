import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataEnvelope, listEnvelope } from "../../schemas/common.ts";
import { User } from "../../schemas/users.ts";
import { startTestApp, type TestApp } from "../../test/testApp.ts";

let t: TestApp;
let org: { id: string };
let otherOrg: { id: string };

beforeAll(async () => {
  t = await startTestApp();
  org = (await t.call("POST", "/organizations", { json: { name: "Users Inc" } })).body.data;
  otherOrg = (await t.call("POST", "/organizations", { json: { name: "Other Inc" } })).body.data;
});
afterAll(() => t.close());

type UserBody = { id: string; email: string; wallet_address: string; organization_id: string };

async function createUser(body: Record<string, unknown>, key?: string): Promise<UserBody> {
  const res = await t.call("POST", "/users", { json: { organization_id: org.id, ...body }, key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const CHECKSUMMED = "0x5B38Da6a701c568545dCfcB03FcB875f56beddC4";

describe("POST /users", () => {
  it("answers 201 with the user, a derived wallet and claimed_count 0", async () => {
    const res = await t.call("POST", "/users", {
      json: { organization_id: org.id, email: "ada@example.com", name: "Ada", external_id: "u-1" },
    });
    expect(res.status).toBe(201);
    const { data } = dataEnvelope(User).parse(res.body);
    expect(data).toMatchObject({
      organization_id: org.id,
      email: "ada@example.com",
      name: "Ada",
      external_id: "u-1",
      blockchain_id: "0x7a69",
      claimed_count: 0,
      is_active: true,
    });
    const derived = Array.from({ length: 50 }, (_, i) => t.wallets.addressAt(i + 1));
    expect(derived).toContain(data.wallet_address);
    expect(res.headers.get("location")).toBe(`/users/${data.id}`);
  });

  it("keeps a wallet address the user brings", async () => {
    const user = await createUser({ email: "own@example.com", wallet_address: CHECKSUMMED });
    expect(user.wallet_address).toBe(CHECKSUMMED);
  });

  it("answers 400 for a wallet address that is not EIP-55 checksummed", async () => {
    for (const wallet_address of [
      CHECKSUMMED.toLowerCase(),
      CHECKSUMMED.replace("B38", "b38"),
      "0x1234",
      "5B38Da6a701c568545dCfcB03FcB875f56beddC4",
    ]) {
      const res = await t.call("POST", "/users", {
        json: { organization_id: org.id, email: "bad-wallet@example.com", wallet_address },
      });
      expect(res.status, wallet_address).toBe(400);
      expect(res.body.error.details[0].field).toBe("wallet_address");
    }
  });

  it("answers 400 naming email when it is missing or invalid", async () => {
    const missing = await t.call("POST", "/users", { json: { organization_id: org.id } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([
      { field: "email", code: "required", message: "is required" },
    ]);
    const invalid = await t.call("POST", "/users", {
      json: { organization_id: org.id, email: "not-an-email" },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details[0].field).toBe("email");
  });

  it("answers 400 naming organization_id when it is missing or not a uuid", async () => {
    const missing = await t.call("POST", "/users", { json: { email: "x@example.com" } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].field).toBe("organization_id");
    const bad = await t.call("POST", "/users", {
      json: { organization_id: "42", email: "x@example.com" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe("organization_id");
  });

  it("answers 400 naming unknown and read-only fields", async () => {
    const res = await t.call("POST", "/users", {
      json: { organization_id: org.id, email: "x@example.com", nickname: "x" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({ field: "nickname", code: "unknown_field" });
    const readOnly = await t.call("POST", "/users", {
      json: { organization_id: org.id, email: "x@example.com", claimed_count: 3 },
    });
    expect(readOnly.status).toBe(400);
    expect(readOnly.body.error.details[0]).toMatchObject({
      field: "claimed_count",
      code: "not_writable",
    });
  });

  it("answers 404 when the organization does not exist or was deleted", async () => {
    const unknown = await t.call("POST", "/users", {
      json: { organization_id: randomUUID(), email: "x@example.com" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({
      code: "organization_not_found",
      details: [expect.objectContaining({ field: "organization_id" })],
    });
    const gone = (await t.call("POST", "/organizations", { json: { name: "Gone" } })).body.data;
    await t.call("DELETE", `/organizations/${gone.id}`);
    const deleted = await t.call("POST", "/users", {
      json: { organization_id: gone.id, email: "x@example.com" },
    });
    expect(deleted.status).toBe(404);
  });

  it("answers 409 when the email exists in the organization, whatever its case", async () => {
    await createUser({ email: "Grace@Example.com" });
    const res = await t.call("POST", "/users", {
      json: { organization_id: org.id, email: "grace@example.COM" },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("duplicate_email");
    expect(res.body.error.details[0].field).toBe("email");
  });

  it("accepts the same email in another organization", async () => {
    await createUser({ email: "twice@example.com" });
    const res = await t.call("POST", "/users", {
      json: { organization_id: otherOrg.id, email: "twice@example.com" },
    });
    expect(res.status).toBe(201);
  });

  it("answers 201 to exactly one of several concurrent creations with the same email", async () => {
    const answers = await Promise.all(
      ["race@example.com", "RACE@example.com", "Race@Example.com", "race@EXAMPLE.com"].map(
        (email) => t.call("POST", "/users", { json: { organization_id: org.id, email } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it("answers 409 for an external_id or a wallet already used in the organization", async () => {
    await createUser({ email: "ext1@example.com", external_id: "ext-dup" });
    const ext = await t.call("POST", "/users", {
      json: { organization_id: org.id, email: "ext2@example.com", external_id: "ext-dup" },
    });
    expect(ext.status).toBe(409);
    expect(ext.body.error.code).toBe("duplicate_external_id");
    const wallet = "0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2";
    await createUser({ email: "w1@example.com", wallet_address: wallet });
    const dup = await t.call("POST", "/users", {
      json: { organization_id: org.id, email: "w2@example.com", wallet_address: wallet },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe("duplicate_wallet_address");
  });

  it("answers 413 for a body over MAX_JSON_BYTES", async () => {
    const server = await t.startSibling({ env: { MAX_JSON_BYTES: "1024" } });
    const res = await server.call("POST", "/users", {
      json: { organization_id: org.id, email: "big@example.com", name: "x".repeat(2000) },
    });
    expect(res.status).toBe(413);
  });

  it("answers 415 for multipart or form bodies", async () => {
    const form = new FormData();
    form.set("email", "x@example.com");
    const multipart = await t.call("POST", "/users", { body: form });
    expect(multipart.status).toBe(415);
    const urlencoded = await t.call("POST", "/users", {
      body: "email=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(urlencoded.status).toBe(415);
  });
});

describe("GET /users", () => {
  let listOrg: { id: string };
  beforeAll(async () => {
    listOrg = (await t.call("POST", "/organizations", { json: { name: "List Org" } })).body.data;
    for (let i = 0; i < 7; i++) {
      await createUser({
        organization_id: listOrg.id,
        email: `list${i}@Example.com`,
        external_id: `list-${i}`,
      });
    }
  });

  it("pages through an organization's users", async () => {
    const first = await t.call("GET", `/users?organization_id=${listOrg.id}&limit=3`);
    expect(first.status).toBe(200);
    listEnvelope(User).parse(first.body);
    expect(first.body.pagination).toEqual({ page: 1, size: 3, pages: 3, count: 7 });
    const last = await t.call("GET", `/users?organization_id=${listOrg.id}&limit=3&page=3`);
    expect(last.body.data.map((u: UserBody) => u.email)).toEqual(["list6@Example.com"]);
    const past = await t.call("GET", `/users?organization_id=${listOrg.id}&limit=3&page=9`);
    expect(past.body).toEqual({ pagination: { page: 9, size: 3, pages: 3, count: 7 }, data: [] });
  });

  it("filters by email case-insensitively, by external_id and by wallet_address", async () => {
    const byEmail = await t.call("GET", "/users?email=LIST2@example.com");
    expect(byEmail.body.data.map((u: UserBody) => u.email)).toEqual(["list2@Example.com"]);
    const byExternal = await t.call(
      "GET",
      `/users?external_id=list-4&organization_id=${listOrg.id}`,
    );
    expect(byExternal.body.data).toHaveLength(1);
    const wallet = byExternal.body.data[0].wallet_address;
    const byWallet = await t.call("GET", `/users?wallet_address=${wallet}`);
    expect(byWallet.body.data.map((u: UserBody) => u.id)).toEqual([byExternal.body.data[0].id]);
  });

  it("answers 400 for limit above 100 and for a bad organization_id", async () => {
    expect((await t.call("GET", "/users?limit=101")).status).toBe(400);
    const bad = await t.call("GET", "/users?organization_id=nope");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe("organization_id");
  });
});

describe("GET /users/:id", () => {
  it("answers 200 with the user, 404 for an unknown id, 400 for a bad id", async () => {
    const user = await createUser({ email: "get@example.com" });
    const found = await t.call("GET", `/users/${user.id}`);
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual(user);
    const missing = await t.call("GET", `/users/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("user_not_found");
    expect((await t.call("GET", "/users/xyz")).status).toBe(400);
  });
});

describe("PATCH /users/:id", () => {
  it("changes email, name and external_id", async () => {
    const user = await createUser({ email: "before@example.com" });
    const res = await t.call("PATCH", `/users/${user.id}`, {
      json: { email: "after@example.com", name: "Renamed", external_id: "ext-after" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      email: "after@example.com",
      name: "Renamed",
      external_id: "ext-after",
      wallet_address: user.wallet_address,
    });
  });

  it("answers 409 when the new email belongs to another user of the organization", async () => {
    await createUser({ email: "taken@example.com" });
    const user = await createUser({ email: "free@example.com" });
    const res = await t.call("PATCH", `/users/${user.id}`, {
      json: { email: "TAKEN@example.com" },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("duplicate_email");
  });

  it("answers 400 for organization_id and wallet_address, which cannot change", async () => {
    const user = await createUser({ email: "fixed@example.com" });
    for (const json of [{ organization_id: otherOrg.id }, { wallet_address: CHECKSUMMED }]) {
      const res = await t.call("PATCH", `/users/${user.id}`, { json });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0]).toMatchObject({
        field: Object.keys(json)[0],
        code: "not_writable",
      });
    }
  });

  it("answers 415 for a body that is not JSON", async () => {
    const user = await createUser({ email: "plain@example.com" });
    const res = await t.call("PATCH", `/users/${user.id}`, {
      body: "name=x",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(415);
  });

  it("answers 404 for an unknown user", async () => {
    const res = await t.call("PATCH", `/users/${randomUUID()}`, { json: { name: "x" } });
    expect(res.status).toBe(404);
  });
});

describe("DELETE /users/:id", () => {
  it("deactivates: the user answers 404, leaves lists, and the email can be used again", async () => {
    const user = await createUser({ email: "leaving@example.com" });
    const res = await t.call("DELETE", `/users/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: user.id, deleted: true } });
    expect((await t.call("GET", `/users/${user.id}`)).status).toBe(404);
    expect((await t.call("GET", "/users?email=leaving@example.com")).body.pagination.count).toBe(0);
    expect((await t.call("DELETE", `/users/${user.id}`)).status).toBe(404);
    const again = await createUser({ email: "leaving@example.com" });
    expect(again.id).not.toBe(user.id);
  });
});

describe("tenant isolation for users", () => {
  let keyA: string;
  let keyB: string;
  let tenantA: { id: string };
  let tenantB: { id: string };
  let userOfB: UserBody;

  beforeAll(async () => {
    tenantA = (await t.call("POST", "/organizations", { json: { name: "UA" } })).body.data;
    tenantB = (await t.call("POST", "/organizations", { json: { name: "UB" } })).body.data;
    keyA = await t.createKey(tenantA.id);
    keyB = await t.createKey(tenantB.id);
    await createUser({ organization_id: tenantA.id, email: "a@example.com" }, keyA);
    userOfB = await createUser({ organization_id: tenantB.id, email: "b@example.com" }, keyB);
  });

  it("lists only users of the key's organizations", async () => {
    const listA = await t.call("GET", "/users", { key: keyA });
    expect(listA.body.data.map((u: UserBody) => u.email)).toEqual(["a@example.com"]);
    const filtered = await t.call("GET", `/users?organization_id=${tenantB.id}`, { key: keyA });
    expect(filtered.body.pagination.count).toBe(0);
  });

  it("answers 404 for another tenant's user on every verb", async () => {
    const path = `/users/${userOfB.id}`;
    expect((await t.call("GET", path, { key: keyA })).status).toBe(404);
    expect((await t.call("PATCH", path, { key: keyA, json: { name: "x" } })).status).toBe(404);
    expect((await t.call("DELETE", path, { key: keyA })).status).toBe(404);
    expect((await t.call("GET", path, { key: keyB })).status).toBe(200);
  });

  it("answers 404 when creating a user in another tenant's organization", async () => {
    const res = await t.call("POST", "/users", {
      key: keyA,
      json: { organization_id: tenantB.id, email: "sneaky@example.com" },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("organization_not_found");
  });
});
