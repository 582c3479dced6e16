import { expect, it } from "vitest";
import { ListPages } from "./listPages.ts";

/** Makes the answer twice at one snapshot, as two requests between two writes would. */
function keep(pages: ListPages, key: string, snapshot: string, bytes: Buffer) {
  pages.offer(key, snapshot, bytes);
  pages.offer(key, snapshot, bytes);
}

it("keeps an answer once it is made a second time at the same snapshot", () => {
  const pages = new ListPages();
  pages.offer("claims", "10:12:", Buffer.from("[1]"));
  expect(pages.get("claims", "10:12:")).toBeUndefined();
  pages.offer("claims", "10:13:", Buffer.from("[1, 2]"));
  expect(pages.get("claims", "10:13:")).toBeUndefined();
  pages.offer("claims", "10:13:", Buffer.from("[1, 2]"));
  expect(pages.get("claims", "10:13:")).toEqual(Buffer.from("[1, 2]"));
  // More requests that missed at the same time offer it again: it stays kept.
  pages.offer("claims", "10:13:", Buffer.from("[1, 2]"));
  expect(pages.get("claims", "10:13:")).toEqual(Buffer.from("[1, 2]"));
});

it("gives a kept answer only at the snapshot it was read at", () => {
  const pages = new ListPages();
  keep(pages, "claims", "10:12:", Buffer.from("[1]"));
  expect(pages.get("claims", "10:12:")).toEqual(Buffer.from("[1]"));
  expect(pages.get("claims", "10:13:")).toBeUndefined();
  // A miss forgets it: the same snapshot again finds nothing.
  expect(pages.get("claims", "10:12:")).toBeUndefined();
});

it("keeps at most its size, dropping the answer given least recently", () => {
  const pages = new ListPages(80);
  keep(pages, "a", "s", Buffer.alloc(10, "a"));
  keep(pages, "b", "s", Buffer.alloc(10, "b"));
  expect(pages.get("a", "s")).toBeDefined();
  // Seven more: 90 in all, so the one given least recently goes.
  for (const key of ["c", "d", "e", "f", "g", "h", "i"])
    keep(pages, key, "s", Buffer.alloc(10, key));
  expect(pages.get("b", "s")).toBeUndefined();
  expect(pages.get("a", "s")).toEqual(Buffer.alloc(10, "a"));
  expect(pages.get("i", "s")).toEqual(Buffer.alloc(10, "i"));
  // An answer of more than an eighth of the size is not kept at all.
  keep(pages, "big", "s", Buffer.alloc(11, "x"));
  expect(pages.get("big", "s")).toBeUndefined();
});
