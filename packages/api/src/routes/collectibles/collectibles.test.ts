/**
 * What a collectible's counts promise while claims are in flight, the one-claim-per-person rule
 * across a deleted and re-created user, and a cover sent as a file: on the real chain, indexer
 * and database.
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { confirmedObjects } from "../../test/confirmedObjects.ts";
import { until } from "../../test/faults.ts";
import { chainAppPerFile } from "../../test/perFile.ts";
import { expect400Naming } from "../../test/refusals.ts";

const TIMEOUT = 120_000;

// A claim held back by the chain answers 202 after a second instead of waiting a minute.
const { t, stack, org } = chainAppPerFile({
  organization: "Counting Co",
  env: { CONFIRM_TIMEOUT_MS: "1000" },
});
const { confirmedCollectible } = confirmedObjects(t, org);

const rpc = (method: string, params: unknown[] = []) =>
  stack.client.request({ method, params } as never) as Promise<unknown>;

async function claimByEmail(collectibleId: string, email: string) {
  return t.call("POST", "/claims", { json: { collectible_id: collectibleId, email } });
}

async function countsOf(collectibleId: string) {
  const { claimed_count, pending_count, available_count } = (
    await t.call("GET", `/collectibles/${collectibleId}`)
  ).body.data;
  return { claimed_count, pending_count, available_count };
}

describe("counts while claims are in flight", () => {
  it(
    "never offers a place a pending claim holds: available_count reaches 0 exactly when POST answers sold_out",
    async () => {
      const collectibleId = await confirmedCollectible("Counted", { totalCount: 3 });
      await rpc("evm_setAutomine", [false]);
      try {
        for (const [i, email] of ["a@count.example", "b@count.example"].entries()) {
          expect((await claimByEmail(collectibleId, email)).status).toBe(202);
          expect(await countsOf(collectibleId)).toEqual({
            claimed_count: 0,
            pending_count: i + 1,
            available_count: 3 - (i + 1),
          });
        }
        expect((await claimByEmail(collectibleId, "c@count.example")).status).toBe(202);
        expect(await countsOf(collectibleId)).toEqual({
          claimed_count: 0,
          pending_count: 3,
          available_count: 0,
        });
        const refused = await claimByEmail(collectibleId, "d@count.example");
        expect(refused.status).toBe(409);
        expect(refused.body.error.code).toBe("sold_out");
        await until("the claims in the pool", async () => {
          const block = (await rpc("eth_getBlockByNumber", ["pending", false])) as {
            transactions: string[];
          };
          return block.transactions.length > 0 ? true : undefined;
        });
        await rpc("evm_mine");
      } finally {
        await rpc("evm_setAutomine", [true]);
      }
      const settled = await until("the claims confirmed", async () => {
        const counts = await countsOf(collectibleId);
        return counts.pending_count === 0 ? counts : undefined;
      });
      expect(settled).toEqual({ claimed_count: 3, pending_count: 0, available_count: 0 });
    },
    TIMEOUT,
  );
  it(
    "answers claimed, pending and available counts that add up to the supply while claims are accepted and confirmed",
    async () => {
      const supply = 30;
      const collectibleId = await confirmedCollectible("Added up", { totalCount: supply });
      const skewed: object[] = [];
      // Answers seen with claims in flight, so the test cannot pass by reading only before or after.
      let inFlight = 0;
      let reading = true;
      const reader = async () => {
        while (reading) {
          const counts = await countsOf(collectibleId);
          const sum = counts.claimed_count + counts.pending_count + counts.available_count;
          if (sum !== supply) skewed.push(counts);
          if (counts.pending_count > 0) inFlight++;
        }
      };
      const readers = Array.from({ length: 3 }, reader);
      try {
        const answers = await Promise.all(
          Array.from({ length: supply }, (_, i) =>
            claimByEmail(collectibleId, `sum${i}@count.example`),
          ),
        );
        expect(
          answers.map((answer) => answer.status).filter((s) => s !== 201 && s !== 202),
        ).toEqual([]);
        await until("every claim confirmed", async () =>
          (await countsOf(collectibleId)).claimed_count === supply ? true : undefined,
        );
      } finally {
        reading = false;
        await Promise.all(readers);
      }
      expect(inFlight).toBeGreaterThan(0);
      expect(skewed).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "gives the places of a collectible the chain refuses back: its claims fail and the counts still add up",
    async () => {
      const supply = 5;
      const contractCode = await rpc("eth_getCode", [stack.contract, "latest"]);
      await rpc("evm_setAutomine", [false]);
      let collectibleId: string;
      try {
        const created = await t.call("POST", "/collectibles", {
          json: { organization_id: org.id, name: "Refused", total_count: supply },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(202);
        collectibleId = created.body.data.id;
        for (const email of ["a@refused.example", "b@refused.example"]) {
          expect((await claimByEmail(collectibleId, email)).status).toBe(202);
        }
        expect(await countsOf(collectibleId)).toEqual({
          claimed_count: 0,
          pending_count: 2,
          available_count: supply - 2,
        });
        await until("the collectible's creation in the pool", async () => {
          const block = (await rpc("eth_getBlockByNumber", ["pending", false])) as {
            transactions: string[];
          };
          return block.transactions.length > 0 ? true : undefined;
        });
        // A contract that refuses every call: the creation reverts, and so does the relayer's
        // second look, as when an operator has taken the relayer's minter role away.
        await rpc("anvil_setCode", [stack.contract, "0x60006000fd"]);
        await rpc("evm_mine");
        await until("the collectible failed", async () => {
          const res = await t.call("GET", `/collectibles/${collectibleId}`);
          return res.body.data.status === "failed" ? true : undefined;
        });
      } finally {
        await rpc("anvil_setCode", [stack.contract, contractCode]);
        await rpc("evm_setAutomine", [true]);
      }
      expect(await countsOf(collectibleId)).toEqual({
        claimed_count: 0,
        pending_count: 0,
        available_count: supply,
      });
      const claims = await t.call("GET", `/claims?collectible_id=${collectibleId}`);
      expect(claims.body.data.map((claim: { status: string }) => claim.status)).toEqual([
        "failed",
        "failed",
      ]);
    },
    TIMEOUT,
  );
});

describe("one claim per person", () => {
  it(
    "refuses a second claim by the same email after the user was deleted and created again",
    async () => {
      const collectibleId = await confirmedCollectible("Counted", { totalCount: 5 });
      const email = "once@count.example";
      const first = await claimByEmail(collectibleId, email);
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect((await t.call("DELETE", `/users/${first.body.data.holder_id}`)).status).toBe(200);

      const byEmail = await claimByEmail(collectibleId, email.toUpperCase());
      expect(byEmail.status).toBe(409);
      expect(byEmail.body.error.code).toBe("already_claimed");

      const again = await t.call("POST", "/users", { json: { organization_id: org.id, email } });
      expect(again.status).toBe(201);
      expect(again.body.data.id).not.toBe(first.body.data.holder_id);
      const byHolder = await t.call("POST", "/claims", {
        json: { collectible_id: collectibleId, holder_id: again.body.data.id },
      });
      expect(byHolder.status).toBe(409);
      expect(byHolder.body.error.code).toBe("already_claimed");

      expect(await countsOf(collectibleId)).toMatchObject({ claimed_count: 1, available_count: 4 });
      // The rule is per collectible: the same person still claims another one.
      const other = await confirmedCollectible("Counted", { totalCount: 1 });
      expect((await claimByEmail(other, email)).status).toBe(201);
    },
    TIMEOUT,
  );
});

describe("a collectible's cover", () => {
  it(
    "is accepted as a multipart file part, with the other fields as text parts",
    async () => {
      const png = await sharp({
        create: { width: 800, height: 400, channels: 3, background: { r: 10, g: 90, b: 200 } },
      })
        .png()
        .toBuffer();
      const form = new FormData();
      form.set("organization_id", org.id);
      form.set("name", "Form Edition");
      form.set("total_count", "7");
      form.set("cover", new Blob([png]), "cover.png");
      const res = await t.call("POST", "/collectibles", { body: form });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data).toMatchObject({ name: "Form Edition", total_count: 7 });
      const original = await fetch(res.body.data.cover.original);
      expect(original.status).toBe(200);
      expect(Buffer.from(await original.arrayBuffer()).equals(png)).toBe(true);
      const medium = await sharp(
        Buffer.from(await (await fetch(res.body.data.cover.medium)).arrayBuffer()),
      ).metadata();
      expect([medium.width, medium.height]).toEqual([512, 256]);
    },
    TIMEOUT,
  );

  it(
    "answers 400 naming the field when a form's integer is not one",
    async () => {
      const form = new FormData();
      form.set("organization_id", org.id);
      form.set("name", "Bad Count");
      form.set("total_count", "seven");
      const res = await t.call("POST", "/collectibles", { body: form });
      expect400Naming(res, "total_count");
    },
    TIMEOUT,
  );
});
