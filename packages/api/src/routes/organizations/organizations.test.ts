import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dataEnvelope } from "../../schemas/common.ts";
import { Organization } from "../../schemas/organizations.ts";
import { testAppPerFile } from "../../test/perFile.ts";
import { expect400Naming } from "../../test/refusals.ts";
import { organizationCreator } from "./organizations.testkit.ts";

const t = testAppPerFile();
const createOrg = organizationCreator(t);

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
    expect400Naming(blank, "name");
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
    expect400Naming(res, "body");
  });

  it("answers 400 naming parent_id when it is not a uuid", async () => {
    const res = await t.call("POST", "/organizations", {
      json: { name: "X", parent_id: "not-a-uuid" },
    });
    expect400Naming(res, "parent_id");
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
    expect400Naming(res, "id");
  });
});
