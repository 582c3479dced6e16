/**
 * Upgrading a database that already holds data: migrations that rewrite rows keep what the
 * chain already has.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../test/testDatabase.ts";
import { MIGRATIONS_FOLDER } from "./driver/client.ts";

interface RawDatabase {
  query<T>(text: string): Promise<T[]>;
  /** Applies the migrations of `folder` not applied yet. */
  migrate(folder: string): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A new database, dropped after the test. */
async function openRaw(): Promise<RawDatabase> {
  const created = await createPostgresDatabase();
  const pool = new pg.Pool({ connectionString: created.url, max: 1 });
  cleanups.push(async () => {
    await pool.end();
    await created.drop();
  });
  return {
    query: async <T>(text: string) => {
      const results = await pool.query(text);
      const last = Array.isArray(results) ? results.at(-1) : results;
      return last.rows as T[];
    },
    migrate: (folder) => migrateNodePg(drizzleNodePg(pool), { migrationsFolder: folder }),
  };
}

/** A new database migrated up to the migration tagged `lastTag`, as an older release left it. */
async function databaseAt(lastTag: string): Promise<RawDatabase> {
  const db = await openRaw();
  await db.migrate(migrationsUpTo(lastTag));
  return db;
}

/** A copy of the migrations folder that stops after the migration tagged `lastTag`. */
function migrationsUpTo(lastTag: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "api-migrations-"));
  cleanups.push(async () => fs.rmSync(folder, { recursive: true, force: true }));
  fs.cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, "meta/_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8"));
  const last = journal.entries.findIndex((entry: { tag: string }) => entry.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

describe("upgrading to one claim per person (0004)", () => {
  it("gives existing claims their holder's email, and keeps a second claim by one email made before the rule", async () => {
    const db = await databaseAt("0003_idempotency_in_transaction");
    const org = "00000000-0000-4000-8000-000000000001";
    const collectible = "00000000-0000-4000-8000-000000000002";
    const [deleted, recreated, other] = [11, 12, 13].map(
      (n) => `00000000-0000-4000-8000-0000000000${n}`,
    );
    await db.query(`
      insert into organizations (id, name, wallet_index, wallet_address)
        values ('${org}', 'Upgrade Co', 1, '0x0');
      insert into users (id, organization_id, email, wallet_address, is_active, created_at) values
        ('${deleted}', '${org}', 'twice@upgrade.example', '0x1', false, now() - interval '2 days'),
        ('${recreated}', '${org}', 'Twice@Upgrade.example', '0x2', true, now() - interval '1 day'),
        ('${other}', '${org}', 'once@upgrade.example', '0x3', true, now());
      insert into collectibles (id, organization_id, name, total_count, reserved_count, status)
        values ('${collectible}', '${org}', 'Before', 5, 3, 'confirmed');
      insert into claims (id, collectible_id, holder_id, minted_to, status, created_at) values
        ('00000000-0000-4000-8000-000000000021', '${collectible}', '${deleted}', '0x1', 'confirmed', now() - interval '2 days'),
        ('00000000-0000-4000-8000-000000000022', '${collectible}', '${recreated}', '0x2', 'confirmed', now() - interval '1 day'),
        ('00000000-0000-4000-8000-000000000023', '${collectible}', '${other}', '0x3', 'pending', now());
    `);

    await db.migrate(MIGRATIONS_FOLDER);

    const rows = await db.query<{ holder_id: string; holder_email: string | null }>(
      "select holder_id, holder_email from claims order by created_at",
    );
    expect(rows).toEqual([
      { holder_id: deleted, holder_email: "twice@upgrade.example" },
      { holder_id: recreated, holder_email: null },
      { holder_id: other, holder_email: "once@upgrade.example" },
    ]);
    // From now on the rule holds: a claim by that email through yet another user is refused.
    const third = "00000000-0000-4000-8000-000000000014";
    await db.query(`insert into users (id, organization_id, email, wallet_address, is_active)
      values ('${third}', '${org}', 'twice@upgrade.example', '0x4', false)`);
    await expect(
      db.query(`insert into claims (collectible_id, holder_id, minted_to, holder_email)
        values ('${collectible}', '${third}', '0x4', 'TWICE@upgrade.example')`),
    ).rejects.toThrow(/claims_collectible_holder_email_unique/);
  });
});

describe("upgrading to batch limits (0012, 0013)", () => {
  it("keeps a claim that was to be sent alone in batches of one, and leaves the others unlimited", async () => {
    const db = await databaseAt("0011_finality");
    const org = "00000000-0000-4000-8000-000000000001";
    const collectible = "00000000-0000-4000-8000-000000000002";
    const [alone, together] = [
      "00000000-0000-4000-8000-000000000031",
      "00000000-0000-4000-8000-000000000032",
    ];
    await db.query(`
      insert into organizations (id, name, wallet_index, wallet_address)
        values ('${org}', 'Upgrade Co', 1, '0x0');
      insert into users (id, organization_id, email, wallet_address) values
        ('00000000-0000-4000-8000-000000000011', '${org}', 'a@upgrade.example', '0x1'),
        ('00000000-0000-4000-8000-000000000012', '${org}', 'b@upgrade.example', '0x2');
      insert into collectibles (id, organization_id, name, total_count, reserved_count, status)
        values ('${collectible}', '${org}', 'Before', 5, 2, 'pending');
      insert into claims (id, collectible_id, holder_id, minted_to, send_alone) values
        ('${alone}', '${collectible}', '00000000-0000-4000-8000-000000000011', '0x1', true),
        ('${together}', '${collectible}', '00000000-0000-4000-8000-000000000012', '0x2', false);
    `);

    await db.migrate(MIGRATIONS_FOLDER);

    const rows = await db.query<{ id: string; batch_limit: number | null }>(
      "select id, batch_limit from claims order by id",
    );
    expect(rows).toEqual([
      { id: alone, batch_limit: 1 },
      { id: together, batch_limit: null },
    ]);
  });
});

describe("upgrading to a kept count of every user (0018)", () => {
  it("counts the users already there, and keeps counting the ones that change", async () => {
    const db = await databaseAt("0017_moves_reorged");
    const orgs = ["01", "02"].map((end) => `00000000-0000-4000-8000-0000000000${end}`);
    await db.query(`
      insert into organizations (id, name, wallet_index, wallet_address)
        select id::uuid, 'Upgrade ' || n, n, '0x' || n
        from unnest(array['${orgs.join("','")}']) with ordinality as o(id, n);
      insert into users (organization_id, email, wallet_address, is_active)
        select o.id::uuid, o.n || '-' || i || '@upgrade.example', '0x' || o.n || i, i <> 3
        from unnest(array['${orgs.join("','")}']) with ordinality as o(id, n),
          generate_series(1, 4) as i;
    `);
    const kept = async () =>
      Number(
        (await db.query<{ n: string }>("select sum(rows) as n from user_count_changes"))[0]?.n,
      );

    await db.migrate(MIGRATIONS_FOLDER);

    // 4 users in each organization, one of them inactive.
    expect(await kept()).toBe(6);
    await db.query(`update users set is_active = false where email like '1-%'`);
    await db.query(`delete from users where email = '2-1@upgrade.example'`);
    await db.query(`insert into users (organization_id, email, wallet_address)
      values ('${orgs[1]}', 'new@upgrade.example', '0xnew')`);
    // Less the first organization's 3, less one deleted, plus one new.
    expect(await kept()).toBe(3);
    const [active] = await db.query<{ n: string }>(
      "select count(*) as n from users where is_active",
    );
    expect(Number(active?.n)).toBe(3);
  });
});

describe("upgrading to appended claim counts (0019)", () => {
  it("keeps the counts of the claims already there, and counts the ones that change", async () => {
    const db = await databaseAt("0018_user_count_changes");
    const org = "00000000-0000-4000-8000-000000000001";
    const drop = "00000000-0000-4000-8000-000000000002";
    await db.query(`
      insert into organizations (id, name, wallet_index, wallet_address)
        values ('${org}', 'Upgrade', 1, '0x01');
      insert into collectibles (id, organization_id, name, total_count, status)
        values ('${drop}', '${org}', 'Upgrade drop', 10, 'confirmed');
      insert into users (organization_id, email, wallet_address)
        select '${org}', i || '@upgrade.example', '0x' || i from generate_series(1, 4) as i;
      insert into claims (collectible_id, holder_id, minted_to, holder_email)
        select '${drop}', id, wallet_address, email from users;
      update claims set status = 'confirmed' where holder_email in ('1@upgrade.example', '2@upgrade.example');
    `);
    const kept = async () =>
      Object.fromEntries(
        (
          await db.query<{ status: string; n: string }>(
            "select status, sum(rows) as n from claim_counts group by status",
          )
        ).map((row) => [row.status, Number(row.n)]),
      );
    expect(await kept()).toEqual({ pending: 2, confirmed: 2 });

    await db.migrate(MIGRATIONS_FOLDER);

    expect(await kept()).toEqual({ pending: 2, confirmed: 2 });
    await db.query(
      `update claims set status = 'confirmed' where holder_email = '3@upgrade.example'`,
    );
    await db.query(`delete from claims where holder_email = '1@upgrade.example'`);
    expect(await kept()).toEqual({ pending: 1, confirmed: 2 });
  });
});

describe("upgrading to one user per address (0020)", () => {
  it("gives an address two users share to the one who had it first, and refuses a second user from then on", async () => {
    const db = await databaseAt("0019_claim_count_changes");
    const [org, elsewhere] = ["01", "02"].map((end) => `00000000-0000-4000-8000-0000000000${end}`);
    const [ada, zoe, bob, gone, eve] = [11, 12, 13, 14, 15].map(
      (n) => `00000000-0000-4000-8000-0000000000${n}`,
    );
    await db.query(`
      insert into organizations (id, name, wallet_index, wallet_address) values
        ('${org}', 'Upgrade', 1, '0x01'), ('${elsewhere}', 'Elsewhere', 2, '0x02');
      insert into users (id, organization_id, email, wallet_address, linked_wallet, linked_at,
          is_active, created_at) values
        ('${ada}', '${org}', 'ada@x', '0xA1', '0xAbC', now() - interval '2 days', true, now() - interval '3 days'),
        ('${zoe}', '${org}', 'zoe@x', '0xABC', null, null, true, now() - interval '1 day'),
        ('${bob}', '${org}', 'bob@x', '0xB', '0xB', now(), true, now()),
        ('${gone}', '${org}', 'gone@x', '0xD', null, null, false, now()),
        ('${eve}', '${elsewhere}', 'eve@x', '0xAbc', null, null, true, now());
    `);
    const kept = () =>
      db.query<{ organization_id: string; address: string; user_id: string }>(
        "select * from user_addresses order by organization_id, address",
      );

    await db.migrate(MIGRATIONS_FOLDER);

    // Ada linked 0xabc before Zoe was created with it; another organization's Eve is another's.
    expect(await kept()).toEqual([
      { organization_id: org, address: "0xa1", user_id: ada },
      { organization_id: org, address: "0xabc", user_id: ada },
      { organization_id: org, address: "0xb", user_id: bob },
      { organization_id: elsewhere, address: "0xabc", user_id: eve },
    ]);
    await expect(
      db.query(`insert into users (organization_id, email, wallet_address)
        values ('${org}', 'new@x', '0xaBc')`),
    ).rejects.toThrow(/user_addresses_pkey/);
    await expect(
      db.query(`update users set linked_wallet = '0xA1' where id = '${bob}'`),
    ).rejects.toThrow(/user_addresses_pkey/);
    // Changes take away only what the user had: Zoe's link leaves Ada her address.
    await db.query(`update users set linked_wallet = '0xE', name = 'Zoe' where id = '${zoe}'`);
    await db.query(`update users set linked_wallet = '0xC' where id = '${bob}'`);
    await db.query(`update users set is_active = false where id = '${ada}'`);
    await db.query(`delete from users where id = '${eve}'`);
    expect(await kept()).toEqual([
      { organization_id: org, address: "0xb", user_id: bob },
      { organization_id: org, address: "0xc", user_id: bob },
      { organization_id: org, address: "0xe", user_id: zoe },
    ]);
  });
});
