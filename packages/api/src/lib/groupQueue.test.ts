import { expect, it } from "vitest";
import { GroupQueue, type Settled } from "./groupQueue.ts";

it("stores what arrives while a group runs as the next group, each item with its own answer", async () => {
  const groups: number[][] = [];
  const queue = new GroupQueue<number, number>(async (items) => {
    groups.push(items);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return items.map(
      (n): Settled<number> => (n % 3 === 0 ? { ok: false, error: n } : { ok: true, value: n * 10 }),
    );
  }, 4);
  const first = queue.submit(1);
  await new Promise((resolve) => setImmediate(resolve));
  const later = [2, 3, 4, 5, 6, 7].map((n) => queue.submit(n));
  const answers = await Promise.allSettled([first, ...later]);
  expect(groups).toEqual([[1], [2, 3, 4, 5], [6, 7]]);
  expect(answers.map((a) => (a.status === "fulfilled" ? a.value : `refused ${a.reason}`))).toEqual([
    10,
    20,
    "refused 3",
    40,
    50,
    "refused 6",
    70,
  ]);
});

it("gives every item of a group that fails the group's error, and goes on with the next", async () => {
  let calls = 0;
  const queue = new GroupQueue<string, string>(async (items) => {
    calls += 1;
    if (calls === 1) throw new Error("database gone");
    return items.map((value) => ({ ok: true, value }));
  }, 10);
  const failed = await Promise.allSettled([queue.submit("a"), queue.submit("b")]);
  expect(failed.map((f) => f.status === "rejected" && (f.reason as Error).message)).toEqual([
    "database gone",
    "database gone",
  ]);
  expect(await queue.submit("c")).toBe("c");
});
