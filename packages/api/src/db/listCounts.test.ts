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
