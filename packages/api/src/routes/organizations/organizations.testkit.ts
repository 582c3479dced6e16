/** Helpers the organization tests share. */
import { expect } from "vitest";
import type { TestApp } from "../../test/testApp.ts";

export type Org = { id: string; name: string; parent_id: string | null; created_at: string };

/** Comparator of ids by (created_at, id), the order every list uses. */
export const byCreation = (orgs: Org[]) => {
  const at = new Map(orgs.map((o) => [o.id, o.created_at]));
  return (a: string, b: string) =>
    (at.get(a) ?? "").localeCompare(at.get(b) ?? "") || a.localeCompare(b);
};

/** Creates an organization through the API, expecting 201. */
export function organizationCreator(t: TestApp) {
  return async (body: Record<string, unknown>, key?: string): Promise<Org> => {
    const res = await t.call("POST", "/organizations", { json: body, key });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };
}
