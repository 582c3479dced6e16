/** Where pending collectibles and claims stand, read in bulk for the requests waiting on them. */
import { inArray } from "drizzle-orm";
import type { Queryable } from "./driver/client.ts";
import { type ChainStatus, claims, collectibles } from "./schema.ts";

export type IntentKind = "collectible" | "claim";

const TABLES = { collectible: collectibles, claim: claims } as const;
// PostgreSQL binds at most 65,535 parameters per statement.
const CHUNK = 1_000;

/** The status of each of `ids` that exists, by id. */
export async function statusesOf(
  q: Queryable,
  kind: IntentKind,
  ids: readonly string[],
): Promise<Map<string, ChainStatus>> {
  const table = TABLES[kind];
  const statuses = new Map<string, ChainStatus>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await q
      .select({ id: table.id, status: table.status })
      .from(table)
      .where(inArray(table.id, ids.slice(i, i + CHUNK)));
    for (const row of rows) statuses.set(row.id, row.status);
  }
  return statuses;
}
