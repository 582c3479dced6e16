/** How an event's object is kept (presenters/events.ts presents many events at once). */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, insertOrganization, type TestDatabase } from "../test/testDatabase.ts";
import { eventsAfter, recordEvents, setEventsData, unpresentedEvents } from "./events.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

it("keeps the first data given to each event: a later presentation answers the kept one and changes nothing", async () => {
  const organization = await insertOrganization(database.db, "Events", 1);
  const objects = [randomUUID(), randomUUID(), randomUUID()].map((id) => ({
    id,
    organizationId: organization.id,
  }));
  await recordEvents(database.db, "claim.confirmed", objects);
  const [first, second, third] = await unpresentedEvents(database.db, 10);
  if (!first || !second || !third) throw new Error("events not recorded");

  // One reader presents the first event; a second reader, which read all three as unpresented,
  // presents them all with what it saw later.
  const early = await setEventsData(database.db, new Map([[first.position, { seen: "early" }]]));
  expect(early).toEqual(new Map([[first.position, { seen: "early" }]]));
  const late = await setEventsData(
    database.db,
    new Map<number, unknown>([
      [first.position, { seen: "late" }],
      [second.position, { seen: "late" }],
      // An object gone by then is kept as null, and counts as presented.
      [third.position, null],
    ]),
  );
  expect(late).toEqual(
    new Map<number, unknown>([
      [first.position, { seen: "early" }],
      [second.position, { seen: "late" }],
      [third.position, null],
    ]),
  );
  expect(await unpresentedEvents(database.db, 10)).toEqual([]);
  // The feed reads the one kept as null as presented, so it is not presented again.
  const read = await eventsAfter(database.db, { organizationId: null }, first.position - 1, 10);
  expect(read.map((event) => [event.data, event.presented])).toEqual([
    [{ seen: "early" }, true],
    [{ seen: "late" }, true],
    [null, true],
  ]);
  expect(await setEventsData(database.db, new Map())).toEqual(new Map());
});
