/**
 * Who holds each claimed token after on-chain transfers, as the API keeps it (`claims.held_by`)
 * for filters, and the position of the indexer's transfers already taken in (`settings`).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "./driver/client.ts";
import { claims, settings } from "./schema.ts";

const POSITION_KEY = "transfers_followed_to_block";

/** The last block whose transfers are taken in; 0 before any. */
export async function transfersFollowedTo(q: Queryable): Promise<bigint> {
  const [row] = await q
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, POSITION_KEY));
  return row ? BigInt(row.value) : 0n;
}

/**
 * Records each claim's holder now, and the new position. A holder already recorded changes
 * nothing, so taking the same transfers in twice (two processes, a retry) tells of no change
 * twice. Answers how many claims changed holder, and the confirmed ones among them (their
 * `claim.transferred` events); run in the transaction that records the events.
 */
export async function recordHolderRows(
  tx: Queryable,
  holders: readonly { claimId: string; holder: string }[],
  followedTo: bigint,
): Promise<{ changed: number; transferred: string[] }> {
  const changed: { id: string; status: string }[] = [];
  for (const { claimId, holder } of holders) {
    changed.push(
      ...(await tx
        .update(claims)
        .set({ heldBy: holder, updatedAt: sql`now()` })
        .where(
          and(
            eq(claims.id, claimId),
            sql`lower(coalesce(${claims.heldBy}, ${claims.mintedTo})) <> lower(${holder})`,
          ),
        )
        .returning({ id: claims.id, status: claims.status })),
    );
  }
  // A claim not yet confirmed reports its holder in its claim.confirmed event.
  const transferred = changed.filter((claim) => claim.status === "confirmed").map((c) => c.id);
  await tx
    .insert(settings)
    .values({ key: POSITION_KEY, value: String(followedTo) })
    .onConflictDoUpdate({
      target: settings.key,
      set: {
        value: sql`greatest(${settings.value}::numeric, ${String(followedTo)}::numeric)::text`,
      },
    });
  return { changed: changed.length, transferred };
}
