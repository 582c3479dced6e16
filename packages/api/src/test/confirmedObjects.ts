/**
 * Collectibles and claims made through the API and confirmed: POST waits for the chain, and a
 * collectible still pending when it answers (202, a short CONFIRM_TIMEOUT_MS) is waited for.
 */
import { expect } from "vitest";
import { until } from "./faults.ts";
import type { TestApp } from "./testApp.ts";

export function confirmedObjects(t: TestApp, org: { id: string }) {
  return {
    /** A confirmed collectible of `totalCount` (50) of `organizationId` (the file's organization). */
    async confirmedCollectible(
      name: string,
      {
        organizationId = org.id,
        totalCount = 50,
      }: { organizationId?: string; totalCount?: number } = {},
    ): Promise<string> {
      const res = await t.call("POST", "/collectibles", {
        json: { organization_id: organizationId, name, total_count: totalCount },
      });
      expect([201, 202], JSON.stringify(res.body)).toContain(res.status);
      const { id, status } = res.body.data;
      const settled =
        status === "pending"
          ? await until(`collectible ${name} settled`, async () => {
              const now = (await t.call("GET", `/collectibles/${id}`)).body.data;
              return now.status === "pending" ? undefined : now;
            })
          : res.body.data;
      expect(settled.status, JSON.stringify(settled)).toBe("confirmed");
      return id;
    },
    /** A confirmed claim of the collectible for `email`. */
    async confirmedClaim(collectibleId: string, email: string): Promise<string> {
      const res = await t.call("POST", "/claims", {
        json: { collectible_id: collectibleId, email },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id;
    },
  };
}
