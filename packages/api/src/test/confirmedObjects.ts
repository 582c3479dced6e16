/** Collectibles and claims made through the API and confirmed (POST waits for the chain). */
import { expect } from "vitest";
import type { TestApp } from "./testApp.ts";

export function confirmedObjects(t: TestApp, org: { id: string }) {
  return {
    /** A confirmed collectible of 50 of `organizationId` (the file's organization by default). */
    async confirmedCollectible(name: string, organizationId = org.id): Promise<string> {
      const res = await t.call("POST", "/collectibles", {
        json: { organization_id: organizationId, name, total_count: 50 },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id;
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
