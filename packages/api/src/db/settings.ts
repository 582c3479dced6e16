import { eq } from "drizzle-orm";
import type { Queryable } from "./driver/client.ts";
import { settings } from "./schema.ts";

/** Stores `value` under `key` unless a value is already there; answers the stored value. */
export async function ensureSetting(q: Queryable, key: string, value: string): Promise<string> {
  await q.insert(settings).values({ key, value }).onConflictDoNothing();
  const [row] = await q
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, key));
  if (!row) throw new Error(`setting ${key} vanished`);
  return row.value;
}
