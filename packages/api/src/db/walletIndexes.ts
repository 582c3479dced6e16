/** BIP-44 address indexes for the wallets the service derives (see `wallets/wallets.ts`). */
import { sql } from "drizzle-orm";
import type { Queryable } from "./client.ts";
import { rowsOf } from "./rows.ts";
import { walletIndexSeq } from "./schema.ts";

/** A fresh index, never handed out before, shared by organizations and users. */
export async function nextWalletIndex(q: Queryable): Promise<number> {
  const result = await q.execute(sql`select nextval(${walletIndexSeq.seqName}) as index`);
  const index = Number(rowsOf<{ index: string | number }>(result)[0]?.index);
  if (!Number.isSafeInteger(index)) throw new Error("wallet index sequence answered nothing");
  return index;
}
