import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dataEnvelope } from "../../schemas/common.ts";
import { User } from "../../schemas/users.ts";
import { testAppPerFile } from "../../test/perFile.ts";
import { expect400Naming } from "../../test/refusals.ts";
import { CHECKSUMMED, usersScene } from "./users.testkit.ts";

const t = testAppPerFile();
const { org, otherOrg, createUser } = usersScene(t);

// Why a wallet address is refused, as the API says it.
const NOT_CHECKSUMMED = "must be EIP-55 checksummed";
const NOT_AN_ADDRESS = "must be a 0x-prefixed 20-byte hex address";
/** The zero address and the precompiles, which can hold no token. */
const NO_TOKEN_HOLDER = "must not be the zero address or a precompile";

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

  it.each([
    [CHECKSUMMED.toLowerCase(), NOT_CHECKSUMMED],
    [CHECKSUMMED.replace("B38", "b38"), NOT_CHECKSUMMED],
    ["0x1234", NOT_AN_ADDRESS],
    ["5B38Da6a701c568545dCfcB03FcB875f56beddC4", NOT_AN_ADDRESS],
    ["0x0000000000000000000000000000000000000000", NO_TOKEN_HOLDER],
    ["0x0000000000000000000000000000000000000001", NO_TOKEN_HOLDER],
    ["0x0000000000000000000000000000000000000011", NO_TOKEN_HOLDER],
    ["0x0000000000000000000000000000000000000100", NO_TOKEN_HOLDER],
  ])("answers 400 for the wallet address %s: it %s", async (wallet_address, message) => {
    const res = await t.call("POST", "/users", {
      json: { organization_id: org.id, email: "bad-wallet@example.com", wallet_address },
    });
    expect400Naming(res, "wallet_address");
    expect(res.body.error.details[0].message).toContain(message);
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
    expect400Naming(invalid, "email");
  });

  it("answers 400 naming organization_id when it is missing or not a uuid", async () => {
    const missing = await t.call("POST", "/users", { json: { email: "x@example.com" } });
    expect400Naming(missing, "organization_id");
    const bad = await t.call("POST", "/users", {
      json: { organization_id: "42", email: "x@example.com" },
    });
    expect400Naming(bad, "organization_id");
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
