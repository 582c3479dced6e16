import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { testAppPerFile } from "../../test/perFile.ts";
import { expect400Naming } from "../../test/refusals.ts";
import { organizationCreator } from "./organizations.testkit.ts";

const t = testAppPerFile();
const createOrg = organizationCreator(t);

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
    expect400Naming(unknown, "nam");
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
