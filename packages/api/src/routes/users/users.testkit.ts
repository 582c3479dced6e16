/** What the user tests share: two organizations made before the tests, and a user factory. */
import { beforeAll, expect } from "vitest";
import type { TestApp } from "../../test/testApp.ts";

export type UserBody = {
  id: string;
  email: string;
  wallet_address: string;
  organization_id: string;
};

export const CHECKSUMMED = "0x5B38Da6a701c568545dCfcB03FcB875f56beddC4";

/** Registers a beforeAll that creates `org` and `otherOrg` (filled in place) on `t`. */
export function usersScene(t: TestApp) {
  const org = { id: "" };
  const otherOrg = { id: "" };
  beforeAll(async () => {
    Object.assign(
      org,
      (await t.call("POST", "/organizations", { json: { name: "Users Inc" } })).body.data,
    );
    Object.assign(
      otherOrg,
      (await t.call("POST", "/organizations", { json: { name: "Other Inc" } })).body.data,
    );
  });
  async function createUser(body: Record<string, unknown>, key?: string): Promise<UserBody> {
    const res = await t.call("POST", "/users", { json: { organization_id: org.id, ...body }, key });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  }
  return { org, otherOrg, createUser };
}
