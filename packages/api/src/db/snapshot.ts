/**
 * The database's snapshot: which transactions a query started now sees as committed, as
 * `pg_current_snapshot()` writes it. Two reads that answer the same text see the same committed
 * data, whatever wrote it (this process, another API process, the CLI, a psql session), so an
 * answer made from the data of one snapshot is still the answer while the snapshot is unchanged
 * (`http/listPages.ts`). Any write, committed or rolled back, changes it.
 *
 * On PostgreSQL the snapshot is read for every use: one prepared statement. PGlite is one
 * process's database (its folder is locked), so only statements this process runs can change
 * it: its snapshot is read again only after a statement other than a page ran. On PGlite, a
 * read of the snapshot for each request took most of what keeping the page saved: 0.79 ms of
 * the API's CPU per kept answer of GET /claims against 0.34 without the read (the list
 * benchmark's API and load; the read alone takes 0.05 ms, but the embedded database's code
 * evicts the server's from the CPU caches).
 */
import { type Database, driverClientOf } from "./client.ts";
import { CountingPGlite } from "./countingPglite.ts";
import { arrayRunner } from "./pageRows.ts";

const SNAPSHOT = "select pg_current_snapshot()::text";

/** Reads the snapshot of `db` (see above): `() => Promise<text>`. */
export function snapshotReader(db: Database): () => Promise<string> {
  const run = arrayRunner(db);
  const read = async () => {
    const [row] = await run("current_snapshot", SNAPSHOT, []);
    return String(row?.[0]);
  };
  const client = driverClientOf(db);
  if (!(client instanceof CountingPGlite)) return read;
  let known: { statements: number; snapshot: Promise<string> } | undefined;
  return () => {
    const statements = client.statements;
    // Read after `statements` was taken: if it is still the count, nothing ran since the read.
    if (known?.statements !== statements) {
      const snapshot = read();
      known = { statements, snapshot };
      // A failed read is not remembered: the next use reads again.
      snapshot.catch(() => {
        if (known?.snapshot === snapshot) known = undefined;
      });
    }
    return known.snapshot;
  };
}
