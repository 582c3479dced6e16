/**
 * The event feed on the real chain, indexer and database: GET /events lists every event once, in
 * commit order, across cursor pages, also while events are being written, and only the key's
 * subtree's.
 */
import { describe, expect, it } from "vitest";
import { confirmedObjects } from "../../test/confirmedObjects.ts";
import { until } from "../../test/faults.ts";
import { chainAppPerFile } from "../../test/perFile.ts";

const TIMEOUT = 180_000;
const { t, org } = chainAppPerFile({ organization: "Fed", env: { CONFIRM_TIMEOUT_MS: "60000" } });
const { confirmedCollectible, confirmedClaim } = confirmedObjects(t, org);

describe("GET /events", () => {
  it(
    "lists every event once in order across cursor pages, the collectible's before its claims'",
    async () => {
      const collectibleId = await confirmedCollectible("Fed");
      const claimIds: string[] = [];
      for (const name of ["fed-a", "fed-b", "fed-c"]) {
        claimIds.push(await confirmedClaim(collectibleId, `${name}@example.com`));
      }
      const seen: { id: string; type: string; timestamp: string; data: { id: string } }[] = [];
      let cursor: string | undefined;
      for (;;) {
        const res = await t.call("GET", `/events?limit=2${cursor ? `&after=${cursor}` : ""}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        seen.push(...res.body.data);
        if (res.body.data.length === 0) break;
        cursor = res.body.next_cursor;
      }
      expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
      const timestamps = seen.map((e) => e.timestamp);
      expect([...timestamps].sort()).toEqual(timestamps);
      const ours = seen
        .filter((e) => e.data?.id === collectibleId || claimIds.includes(e.data?.id))
        .map((e) => `${e.type} ${e.data.id}`);
      expect(ours).toEqual([
        `collectible.confirmed ${collectibleId}`,
        ...claimIds.map((id) => `claim.confirmed ${id}`),
      ]);
      // Polling again from the last cursor gives nothing new, and keeps the cursor.
      const again = await t.call("GET", `/events?after=${cursor}`);
      expect(again.body).toEqual({ data: [], next_cursor: cursor });
    },
    TIMEOUT,
  );

  it(
    "misses and repeats nothing for a reader polling while claims confirm concurrently",
    async () => {
      const collectibleId = await confirmedCollectible("Fed concurrently");
      type Event = { id: string; data: { id: string } | null };
      const readPage = async (after: string | undefined, into: Event[]) => {
        const res = await t.call("GET", `/events?limit=5${after ? `&after=${after}` : ""}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        into.push(...res.body.data);
        return { cursor: res.body.next_cursor as string, count: res.body.data.length as number };
      };
      /** Reads pages until one is empty; the cursor after the last event. */
      const readToEnd = async (after: string | undefined, into: Event[]) => {
        for (;;) {
          const page = await readPage(after, into);
          after = page.cursor;
          if (page.count === 0) return after;
        }
      };
      const start = await readToEnd(undefined, []);
      const polled: Event[] = [];
      let cursor = start;
      let writing = true;
      const poller = (async () => {
        while (writing) cursor = (await readPage(cursor, polled)).cursor;
      })();
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.call("POST", "/claims", {
            json: { collectible_id: collectibleId, email: `fed-concurrent-${i}@example.com` },
          }),
        ),
      );
      await until("every claim's event polled", async () =>
        claims.every((c) => polled.some((e) => e.data?.id === c.body.data.id)) ? true : undefined,
      );
      writing = false;
      await poller;
      await readToEnd(cursor, polled);
      // The same span read again in one go afterwards.
      const again: Event[] = [];
      await readToEnd(start, again);
      expect(new Set(polled.map((e) => e.id)).size).toBe(polled.length);
      expect(polled.map((e) => e.id)).toEqual(again.map((e) => e.id));
    },
    TIMEOUT,
  );

  it(
    "shows a key limited to an organization only its subtree's events",
    async () => {
      const other = await t.call("POST", "/organizations", { json: { name: "Elsewhere" } });
      const key = await t.createKey(other.body.data.id);
      const ownId = await confirmedCollectible("Elsewhere's own", {
        organizationId: other.body.data.id,
      });
      const collectibleId = await confirmedCollectible("Private to Hooked");
      await until("both collectibles' events", async () => {
        const all = await t.call("GET", "/events?limit=100");
        const ids = all.body.data.map((e: { data: { id: string } }) => e.data?.id);
        return ids.includes(collectibleId) && ids.includes(ownId) ? true : undefined;
      });
      const theirs = await t.call("GET", "/events?limit=100", { key });
      expect(theirs.status).toBe(200);
      expect(
        theirs.body.data.map(
          (e: { type: string; data: { id: string } }) => `${e.type} ${e.data.id}`,
        ),
      ).toEqual([`collectible.confirmed ${ownId}`]);
    },
    TIMEOUT,
  );

  it(
    "answers 20 events when no limit is given, as every list does",
    async () => {
      const collectibleId = await confirmedCollectible("Fed by default", { totalCount: 30 });
      const items = Array.from({ length: 25 }, (_, i) => ({
        collectible_id: collectibleId,
        email: `default-${i}@example.com`,
      }));
      const batch = await t.call("POST", "/claims/batch", { json: { items } });
      expect(batch.status, JSON.stringify(batch.body)).toBe(200);
      await until("the batch's claims confirmed", async () => {
        const res = await t.call("GET", `/claims?collectible_id=${collectibleId}&status=confirmed`);
        return res.body.pagination.count === items.length ? true : undefined;
      });
      const all = await t.call("GET", "/events?limit=100");
      expect(all.body.data.length).toBeGreaterThan(20);
      const page = await t.call("GET", "/events");
      expect(page.status).toBe(200);
      expect(page.body.data).toEqual(all.body.data.slice(0, 20));
    },
    TIMEOUT,
  );

  it("refuses a cursor it did not give", async () => {
    const res = await t.call("GET", "/events?after=bm90LWEtY3Vyc29y");
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({ field: "after", code: "invalid_cursor" });
  });
});
