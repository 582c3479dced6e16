import { expect, it } from "vitest";
import { ConcurrencyLimit } from "./concurrencyLimit.ts";

it("runs at most its limit of tasks at once, the rest in arrival order", async () => {
  const limit = new ConcurrencyLimit(2);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const task = (i: number) =>
    limit.run(async () => {
      started.push(i);
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return i;
    });
  const results = await Promise.all([0, 1, 2, 3, 4, 5].map(task));
  expect(results).toEqual([0, 1, 2, 3, 4, 5]);
  expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  expect(most).toBe(2);
});

it("frees the slot of a task that fails", async () => {
  const limit = new ConcurrencyLimit(1);
  await expect(limit.run(() => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
  expect(await limit.run(async () => "next")).toBe("next");
});
