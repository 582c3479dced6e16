import { expect, it } from "vitest";
import { Precedence } from "./precedence.ts";

const tick = () => new Promise((resolve) => setImmediate(resolve));

it("lets a turn wait for the work in flight, and for work started as soon as it ends", async () => {
  const precedence = new Precedence(60_000);
  const order: string[] = [];
  let answer: () => void = () => {};
  const answered = () =>
    new Promise<void>((resolve) => {
      answer = resolve;
    });
  // Two calls one after the other, as the relayer makes them.
  const calls = (async () => {
    await precedence.run(answered);
    order.push("first answered");
    await precedence.run(answered);
    order.push("second answered");
  })();
  const turn = precedence.turn().then(() => order.push("turn"));
  await tick();
  answer();
  await tick();
  await tick();
  expect(order).toEqual(["first answered"]);
  answer();
  await Promise.all([calls, turn]);
  expect(order).toEqual(["first answered", "second answered", "turn"]);
});

it("does not wait when nothing is in flight", async () => {
  // A bound past the test's timeout: a turn that waited at all would fail the test.
  await new Precedence(60_000).turn();
});

it("waits no longer than its bound", async () => {
  const precedence = new Precedence(20);
  let answer: () => void = () => {};
  const call = precedence.run(() => new Promise<void>((resolve) => (answer = resolve)));
  const order: string[] = [];
  await precedence.turn().then(() => order.push("turn"));
  answer();
  await call.then(() => order.push("call"));
  expect(order).toEqual(["turn", "call"]);
});

it("passes on the work's answer and its error, and leaves nothing in flight after either", async () => {
  const precedence = new Precedence(60_000);
  expect(await precedence.run(async () => 7)).toBe(7);
  await expect(precedence.run(async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
  // Past the test's timeout if the failed work still counted as in flight.
  await precedence.turn();
});
