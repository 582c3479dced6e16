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

it("waits no longer than its bound, and not at all when nothing is in flight", async () => {
  const precedence = new Precedence(20);
  await precedence.turn();
  let answer: () => void = () => {};
  const call = precedence.run(() => new Promise<void>((resolve) => (answer = resolve)));
  const order: string[] = [];
  await precedence.turn().then(() => order.push("turn"));
  answer();
  await call.then(() => order.push("call"));
  expect(order).toEqual(["turn", "call"]);
});

it("passes on the work's answer and its error", async () => {
  const precedence = new Precedence(20);
  expect(await precedence.run(async () => 7)).toBe(7);
  await expect(precedence.run(async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
  await precedence.turn(); // nothing left in flight after a failure either
});
