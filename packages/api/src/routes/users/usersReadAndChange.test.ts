import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { listEnvelope } from "../../schemas/common.ts";
import { User } from "../../schemas/users.ts";
import { pagination } from "../../test/pagination.ts";
import { testAppPerFile } from "../../test/perFile.ts";
import { expect400Naming } from "../../test/refusals.ts";
import { CHECKSUMMED, type UserBody, usersScene } from "./users.testkit.ts";

const t = testAppPerFile();
const { otherOrg, createUser } = usersScene(t);

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
    expect(first.body.pagination).toEqual(pagination({ page: 1, size: 3, pages: 3, count: 7 }));
    const last = await t.call("GET", `/users?organization_id=${listOrg.id}&limit=3&page=3`);
    expect(last.body.data.map((u: UserBody) => u.email)).toEqual(["list6@Example.com"]);
    const past = await t.call("GET", `/users?organization_id=${listOrg.id}&limit=3&page=9`);
    expect(past.body).toEqual({
      pagination: pagination({ page: 9, size: 3, pages: 3, count: 7 }),
      data: [],
    });
  });

  it("filters by email case-insensitively, by external_id and by wallet_address in any letter case", async () => {
    const byEmail = await t.call("GET", "/users?email=LIST2@example.com");
    expect(byEmail.body.data.map((u: UserBody) => u.email)).toEqual(["list2@Example.com"]);
    const byExternal = await t.call(
      "GET",
      `/users?external_id=list-4&organization_id=${listOrg.id}`,
    );
    expect(byExternal.body.data).toHaveLength(1);
    const wallet = byExternal.body.data[0].wallet_address;
    for (const asked of [wallet, wallet.toLowerCase(), `0x${wallet.slice(2).toUpperCase()}`]) {
      const byWallet = await t.call("GET", `/users?wallet_address=${asked}`);
      expect(byWallet.body.data.map((u: UserBody) => u.id)).toEqual([byExternal.body.data[0].id]);
    }
  });

  it("answers 400 for limit above 100 and for a bad organization_id", async () => {
    expect((await t.call("GET", "/users?limit=101")).status).toBe(400);
    const bad = await t.call("GET", "/users?organization_id=nope");
    expect400Naming(bad, "organization_id");
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
