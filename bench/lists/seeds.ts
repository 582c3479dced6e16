/**
 * Seeding functions for the list benchmark, run in a process of their own (`server.ts seed`)
 * straight through the API's database module: bulk SQL, not HTTP, so 100,000 rows take seconds.
 * A seed is named on the command line.
 */
import type { Database } from "@collectibles/api/embed";
import { sql } from "drizzle-orm";

export type Seed = (db: Database, rows: number) => Promise<Record<string, number>>;

/** `rows` users spread over rows/10 organizations, created_at one second apart. */
const users: Seed = async (db, rows) => {
  const organizations = Math.max(1, Math.floor(rows / 10));
  await db.execute(sql`
    insert into organizations (name, description, external_id, wallet_index, wallet_address,
                               created_at, updated_at)
    select 'Organization ' || i, 'Seeded for the list benchmark', 'org-' || i,
           nextval('wallet_index_seq'), '0x' || lpad(to_hex(i), 40, '0'),
           timestamptz '2026-01-01T00:00:00Z' + i * interval '1 second',
           timestamptz '2026-01-01T00:00:00Z' + i * interval '1 second'
    from generate_series(1, ${organizations}) as i`);
  await db.execute(sql`
    insert into users (organization_id, email, name, external_id, wallet_index, wallet_address,
                       created_at, updated_at)
    select o.id, 'user' || i || '@example.com', 'User ' || i, 'user-' || i,
           nextval('wallet_index_seq'), '0x' || lpad(to_hex(16777216 + i), 40, '0'),
           timestamptz '2026-02-01T00:00:00Z' + i * interval '1 second',
           timestamptz '2026-02-01T00:00:00Z' + i * interval '1 second'
    from generate_series(1, ${rows}) as i
    join (select id, row_number() over (order by created_at, id) as n from organizations) as o
      on o.n = 1 + (i % ${organizations})`);
  await db.execute(sql`analyze`);
  return { organizations, users: rows };
};

/**
 * `rows` confirmed claims: 100 collectibles of rows/100 editions in 10 organizations, each claim
 * by its own user, with its edition and transaction as the relayer stores them on confirmation,
 * created_at one second apart (the users seed supplies the holders).
 */
const claims: Seed = async (db, rows) => {
  const made = await users(db, rows);
  const collectibles = Math.max(1, Math.floor(rows / 1000));
  const perCollectible = Math.ceil(rows / collectibles);
  await db.execute(sql`
    insert into collectibles (organization_id, name, total_count, reserved_count, status,
                              created_at, updated_at)
    select o.id, 'Collectible ' || i, ${perCollectible}, ${perCollectible}, 'confirmed',
           timestamptz '2026-03-01T00:00:00Z' + i * interval '1 second',
           timestamptz '2026-03-01T00:00:00Z' + i * interval '1 second'
    from generate_series(1, ${collectibles}) as i
    join (select id, row_number() over (order by created_at, id) as n from organizations) as o
      on o.n = i`);
  await db.execute(sql`
    insert into claims (collectible_id, holder_id, minted_to, status, edition, transaction_hash,
                        created_at, updated_at)
    select c.id, u.id, u.wallet_address, 'confirmed', 1 + ((u.n - 1) % ${perCollectible}),
           '0x' || lpad(to_hex(u.n), 64, '0'),
           timestamptz '2026-04-01T00:00:00Z' + u.n * interval '1 second',
           timestamptz '2026-04-01T00:00:00Z' + u.n * interval '1 second'
    from (select id, organization_id, wallet_address,
                 row_number() over (order by created_at, id) as n from users) as u
    join (select id, row_number() over (order by created_at, id) as n from collectibles) as c
      on c.n = 1 + ((u.n - 1) / ${perCollectible})`);
  await db.execute(sql`vacuum analyze`);
  return { ...made, collectibles, claims: rows };
};

export const seeds: Record<string, Seed> = { users, claims };
