/** What the tests assert about a refused request. */
import { expect } from "vitest";
import type { CallResult } from "./testApp.ts";

/** A 400 whose first detail names `field`, as a client reads which field to fix. */
export function expect400Naming(res: CallResult, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.details[0].field).toBe(field);
}
