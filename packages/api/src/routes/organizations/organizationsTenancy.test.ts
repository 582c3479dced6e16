import { beforeAll, describe, expect, it } from "vitest";
import { testAppPerFile } from "../../test/perFile.ts";
import { type Org, organizationCreator } from "./organizations.testkit.ts";

const t = testAppPerFile();
const createOrg = organizationCreator(t);

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
