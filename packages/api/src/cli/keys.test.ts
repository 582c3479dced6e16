import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test/testApp.ts";
import { runKeysCommand, UsageError } from "./keys.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const keyIn = (output: string) => output.match(/ck_live_[0-9A-Za-z]{32}/)?.[0];

describe("keys CLI", () => {
  it("create prints a new key once, and the key works", async () => {
    const output = await runKeysCommand(t.database.db, ["create", "--name", "ci"]);
    const key = keyIn(output);
    expect(key).toBeDefined();
    expect((await t.call("GET", "/organizations", { key })).status).toBe(200);
  });

  it("list shows ids, prefixes and names but never a whole key", async () => {
    const key = keyIn(await runKeysCommand(t.database.db, ["create", "--name", "listed"]));
    const output = await runKeysCommand(t.database.db, ["list"]);
    expect(output).toContain("listed");
    expect(output).toContain(`${key?.slice(0, 12)}...`);
    expect(output).not.toContain(key);
    expect(output).not.toMatch(/ck_live_[0-9A-Za-z]{32}/);
  });

  it("revoke makes the key answer 401", async () => {
    const key = keyIn(await runKeysCommand(t.database.db, ["create", "--name", "revoked"]));
    const list = await runKeysCommand(t.database.db, ["list"]);
    const id = list
      .split("\n")
      .find((line) => line.endsWith("revoked"))
      ?.split(" ")[0];
    expect(await runKeysCommand(t.database.db, ["revoke", id ?? ""])).toMatch(/^Revoked key/);
    expect((await t.call("GET", "/organizations", { key })).status).toBe(401);
    await expect(runKeysCommand(t.database.db, ["revoke", id ?? ""])).rejects.toThrow(
      /No active key/,
    );
  });

  it("create --organization scopes the key to an existing organization", async () => {
    const org = await t.call("POST", "/organizations", { json: { name: "Scoped" } });
    const output = await runKeysCommand(t.database.db, [
      "create",
      "--organization",
      org.body.data.id,
    ]);
    expect(output).toContain(`scoped to ${org.body.data.id}`);
    const key = keyIn(output);
    const list = await t.call("GET", "/organizations", { key });
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual([org.body.data.id]);
  });

  it("refuses unknown commands, bad ids and unknown organizations", async () => {
    await expect(runKeysCommand(t.database.db, ["frobnicate"])).rejects.toThrow(UsageError);
    await expect(runKeysCommand(t.database.db, ["revoke", "nope"])).rejects.toThrow(UsageError);
    await expect(
      runKeysCommand(t.database.db, [
        "create",
        "--organization",
        "7b0e6a4e-8d5c-4f55-9d7b-7d0d0d3e6a11",
      ]),
    ).rejects.toThrow(/No active organization/);
    expect(await runKeysCommand(t.database.db, [])).toMatch(/^Usage:/);
  });
});
