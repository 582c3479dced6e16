import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { API_NODE_FLAGS, API_START_ENV } from "./heap.ts";

const startScript = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, "../package.json"), "utf8")) as {
    scripts: { start: string };
  }
).scripts.start.split(/\s+/);

it("starts the API with the Node flags that bound its heap", () => {
  expect(startScript.filter((word) => word.startsWith("--"))).toEqual(API_NODE_FLAGS);
});

it("starts the API with the allocator setting that returns freed memory", () => {
  const assignments = startScript.filter((word) => /^[A-Z_]+=/.test(word));
  expect(Object.fromEntries(assignments.map((word) => word.split(/=(.*)/s).slice(0, 2)))).toEqual(
    API_START_ENV,
  );
});
