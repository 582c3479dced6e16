/**
 * The database's snapshot: which transactions a query started now sees as committed, as
 * `pg_current_snapshot()` writes it. Two reads that answer the same text see the same committed
 * data, whatever wrote it (this process, another API process, the CLI, a psql session), so an
 * answer made from the data of one snapshot is still the answer while the snapshot is unchanged
 * (`http/listPages.ts`). Any write, committed or rolled back, changes it.
 */
import type { Database } from "./client.ts";
import { arrayRunner } from "./pageRows.ts";

const SNAPSHOT = "select pg_current_snapshot()::text";

/** Reads the snapshot of `db` (see above): one prepared statement per use. */
export function snapshotReader(db: Database): () => Promise<string> {
  const run = arrayRunner(db);
  return async () => {
    const [row] = await run("current_snapshot", SNAPSHOT, []);
    return String(row?.[0]);
  };
}
