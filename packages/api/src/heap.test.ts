import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { API_NODE_FLAGS } from "./heap.ts";

it("starts the API with the Node flags that bound its heap", () => {
  const manifest = JSON.parse(
    readFileSync(path.join(import.meta.dirname, "../package.json"), "utf8"),
  ) as { scripts: { start: string } };
  const startFlags = manifest.scripts.start.split(/\s+/).filter((word) => word.startsWith("--"));
  expect(startFlags).toEqual(API_NODE_FLAGS);
});
