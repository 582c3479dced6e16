import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { API_NODE_FLAGS } from "./heap.ts";

const startScript = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, "../package.json"), "utf8")) as {
    scripts: { start: string };
  }
).scripts.start.split(/\s+/);

it("starts the API with the Node flags that bound its heap", () => {
  expect(startScript.filter((word) => word.startsWith("--"))).toEqual(API_NODE_FLAGS);
});
