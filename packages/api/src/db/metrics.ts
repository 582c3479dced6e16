/** What /metrics reads from the database at each scrape: the relayer's backlog, the webhook queue. */
import { sql } from "drizzle-orm";
import { type Database, driverClientOf, rowsOf } from "./driver/client.ts";
import { webhookMessages } from "./eventSchema.ts";
import { claims, collectibles } from "./schema.ts";

export interface Backlog {
  kind: "collectible" | "claim";
  pending: number;
  /** Seconds since the oldest pending one was accepted; 0 when none is pending. */
  oldestSeconds: number;
}

/** Pending collectibles and claims (not yet confirmed), and the age of the oldest of each. */
export async function relayerBacklog(db: Database): Promise<Backlog[]> {
  const backlogOf = (kind: Backlog["kind"], table: typeof claims | typeof collectibles) => sql`
    select ${kind}::text as kind, count(*)::int as pending,
      coalesce(extract(epoch from now() - min(${table.createdAt})), 0)::float8 as "oldestSeconds"
    from ${table} where ${table.status} = 'pending'`;
  const result = await db.execute(
    sql`${backlogOf("collectible", collectibles)} union all ${backlogOf("claim", claims)}`,
  );
  return rowsOf<Backlog>(result);
}

export interface WebhookQueue {
  status: "pending" | "succeeded" | "failed";
  messages: number;
  attempts: number;
}

/** Webhook messages by status, with the attempts made on them. */
export async function webhookQueue(db: Database): Promise<WebhookQueue[]> {
  const result = await db.execute(sql`
    select ${webhookMessages.status} as status, count(*)::int as messages,
      coalesce(sum(${webhookMessages.attemptCount}), 0)::float8 as attempts
    from ${webhookMessages} group by ${webhookMessages.status}`);
  return rowsOf<WebhookQueue>(result);
}

/** The connection pool's connections: open, idle, and requests waiting for one. */
export function poolConnections(db: Database): { total: number; idle: number; waiting: number } {
  const pool = driverClientOf(db) as Partial<
    Record<"totalCount" | "idleCount" | "waitingCount", number>
  >;
  return {
    total: pool.totalCount ?? 0,
    idle: pool.idleCount ?? 0,
    waiting: pool.waitingCount ?? 0,
  };
}
