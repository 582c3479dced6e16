/**
 * What the chain-flow tests share: a real chain and the test app on it with one organization, and
 * a collectible and a user made through the API.
 */
import type { Address } from "viem";
import { expect } from "vitest";
import { Collectible } from "../schemas/collectibles.ts";
import { dataEnvelope } from "../schemas/common.ts";
import { chainAppPerFile } from "./perFile.ts";
import type { TestApp } from "./testApp.ts";

/** Real chain, indexer and database: generous on a busy 2-core CI machine. */
export const TIMEOUT = 120_000;

/** The chain, app and organization of one chain-flow test file, with `flowHelpers` on them. */
export function chainFlowPerFile() {
  // POST waits for the chain: a test reads a collectible or claim confirmed from its answer.
  const file = chainAppPerFile({ organization: "Chain Co", env: { CONFIRM_TIMEOUT_MS: "60000" } });
  return { ...file, ...flowHelpers(file.t, file.org) };
}

export function flowHelpers(t: TestApp, org: { id: string }) {
  return {
    async createCollectible(body: Record<string, unknown> = {}) {
      const res = await t.call("POST", "/collectibles", {
        json: { organization_id: org.id, name: "Edition", total_count: 3, ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return dataEnvelope(Collectible).parse(res.body).data;
    },
    /** A user of the organization: with a wallet of their own when given, else one it derives. */
    async createUser(email: string, wallet?: Address) {
      const res = await t.call("POST", "/users", {
        json: { organization_id: org.id, email, ...(wallet ? { wallet_address: wallet } : {}) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data as { id: string; wallet_address: Address };
    },
  };
}
