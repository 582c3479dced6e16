import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./webhookSender.ts";

describe("webhook retry delays", () => {
  it("double from the base within ±20%, and never exceed an hour, still spread at the cap", () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const delay = retryDelayMs(5_000, attempt);
      const exponential = 5_000 * 2 ** (attempt - 1);
      expect(delay).toBeGreaterThanOrEqual(Math.min(exponential, 3_000_000) * 0.8);
      expect(delay).toBeLessThanOrEqual(Math.min(exponential * 1.2, 3_600_000));
    }
    const atCap = Array.from({ length: 200 }, () => retryDelayMs(5_000, 40));
    expect(Math.max(...atCap)).toBeLessThanOrEqual(3_600_000);
    expect(new Set(atCap).size).toBeGreaterThan(100);
  });
});
