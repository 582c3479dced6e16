/**
 * How waiting claims are cut into batches: at most the batch size, never more than the batch
 * limit of any claim in a batch (the halves of a batch that reverted), and one collectible's
 * claims next to each other.
 */
import { describe, expect, it } from "vitest";
import type { ClaimIntent } from "../db/chainIntents.ts";
import { batchesOf } from "./claimSender.ts";

const claim = (id: string, collectibleId: string, batchLimit: number | null = null) =>
  ({ id, collectibleId, mintedTo: "0x1", toServiceWallet: true, batchLimit }) satisfies ClaimIntent;
const ids = (batches: ClaimIntent[][]) => batches.map((batch) => batch.map((row) => row.id));

describe("claim batches", () => {
  it("cut claims without a limit at the batch size, one collectible's claims together", () => {
    const rows = [claim("a1", "a"), claim("b1", "b"), claim("a2", "a"), claim("b2", "b")];
    expect(ids(batchesOf(rows, 3))).toEqual([["a1", "a2", "b1"], ["b2"]]);
  });

  it("send the claims of a batch that reverted in halves, apart from claims without a limit", () => {
    const halves = ["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8"].map((id) => claim(id, "h", 4));
    const rows = [claim("n1", "n"), ...halves, claim("n2", "n")];
    expect(ids(batchesOf(rows, 100))).toEqual([
      ["n1", "n2"],
      ["h1", "h2", "h3", "h4"],
      ["h5", "h6", "h7", "h8"],
    ]);
  });

  it("send a claim limited to one alone, and never above the batch size whatever the limit", () => {
    const rows = [claim("x", "c", 1), claim("y", "c", 50), claim("z", "c", 50)];
    expect(ids(batchesOf(rows, 1))).toEqual([["x"], ["y"], ["z"]]);
    expect(ids(batchesOf(rows, 100))).toEqual([["x"], ["y", "z"]]);
  });
});
