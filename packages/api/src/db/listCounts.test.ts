import { expect, it } from "vitest";
import { ListCounts } from "./listCounts.ts";

function counter(value: number) {
  let calls = 0;
  return {
    count: async () => {
      calls += 1;
      return value;
    },
    get calls() {
      return calls;
    },
  };
}

it("answers a list's count again without counting until a write", async () => {
  const counts = new ListCounts();
  const users = counter(7);
  expect(await counts.get("users", users.count)).toBe(7);
  expect(await counts.get("users", users.count)).toBe(7);
  expect(users.calls).toBe(1);

  counts.invalidate();
  expect(await counts.get("users", users.count)).toBe(7);
  expect(users.calls).toBe(2);
});

it("counts again once a count is older than its maximum age", async () => {
  const counts = new ListCounts(0);
  const users = counter(3);
  await counts.get("users", users.count);
  await new Promise((resolve) => setTimeout(resolve, 5));
  await counts.get("users", users.count);
  expect(users.calls).toBe(2);
});

it("does not remember a count that a write ended during", async () => {
  const counts = new ListCounts();
  let finish: (value: number) => void = () => {};
  const slow = counts.get("claims", () => new Promise<number>((resolve) => (finish = resolve)));
  counts.invalidate();
  finish(10);
  expect(await slow).toBe(10);

  const claims = counter(11);
  expect(await counts.get("claims", claims.count)).toBe(11);
  expect(claims.calls).toBe(1);
});

it("keeps separate counts per key and forgets the oldest beyond its capacity", async () => {
  const counts = new ListCounts(60_000, 2);
  const a = counter(1);
  const b = counter(2);
  const c = counter(3);
  await counts.get("a", a.count);
  await counts.get("b", b.count);
  await counts.get("c", c.count);
  await counts.get("b", b.count);
  await counts.get("a", a.count);
  expect([a.calls, b.calls, c.calls]).toEqual([2, 1, 1]);
});

it("counts once for requests that ask while the count runs, and again after a write", async () => {
  const counts = new ListCounts();
  let calls = 0;
  let finish: (value: number) => void = () => {};
  const slowCount = () => {
    calls += 1;
    return new Promise<number>((resolve) => (finish = resolve));
  };
  const asked = [counts.get("claims", slowCount), counts.get("claims", slowCount)];
  finish(42);
  expect(await Promise.all(asked)).toEqual([42, 42]);
  expect(calls).toBe(1);

  // A write while counting: the next request counts anew instead of waiting for the old count.
  const before = counts.get("users", slowCount);
  const finishBefore = finish;
  counts.invalidate();
  const after = counts.get("users", slowCount);
  expect(calls).toBe(3);
  finish(2);
  finishBefore(1);
  expect(await Promise.all([before, after])).toEqual([1, 2]);
});
