/**
 * A claim group's statements (services/claims/claimGroups.ts): the whole group stored in one
 * statement, and the claims it stored then refused, and the users it created for them, taken
 * back.
 */
import { eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Scope } from "../domain/auth.ts";
import type { ClaimRow } from "./claims.ts";
import type { Queryable } from "./driver/client.ts";
import { claims, collectibles, organizations, users } from "./schema.ts";
import { visibleCollectible } from "./scope.ts";

/** One request of a claim group, as `insertClaimGroup` takes it. */
export interface GroupedClaim {
  collectibleId: string;
  /** The holder by id; else the active user with `email` in the collectible's organization. */
  holderId: string | null;
  email: string | null;
  externalId: string | null;
  /** The wallet of the user created by `email` when there is none (unused otherwise). */
  wallet: { index: number; address: string } | null;
}

/** What `insertClaimGroup` did for one request that was given a place and a holder. */
export interface GroupedClaimOutcome {
  /** The request's index among those given. */
  request: number;
  holderId: string;
  organizationId: string;
  /** The holder was created by this statement, with this wallet index. */
  created: boolean;
  walletIndex: number | null;
  /** The claim of the request's collectible and holder, when one was inserted (repeats share it). */
  claim: ClaimRow | null;
}

/**
 * A claim group in one statement (one round trip, where each step was one): locks the
 * requests' collectibles, gives places in arrival order up to what is left of each supply (none
 * on a failed collectible), finds each placed request's holder or creates it by email, inserts
 * the claims (a unique index refusing one leaves it out) and takes their places.
 *
 * Answers the requests given a place and a holder; the others (an unknown collectible, no place
 * left, a holder not found, or created meanwhile by another transaction) are not answered.
 */
export async function insertClaimGroup(
  tx: Queryable,
  scope: Scope,
  requests: GroupedClaim[],
): Promise<GroupedClaimOutcome[]> {
  if (requests.length === 0) return [];
  // The requests travel as one array per column: six parameters whatever the group's size.
  const column = <T>(type: string, value: (request: GroupedClaim) => T) =>
    sql`${sql.param(requests.map(value))}::${sql.raw(type)}[]`;
  const columns = [
    column("uuid", (r) => r.collectibleId),
    column("uuid", (r) => r.holderId),
    column("text", (r) => r.email),
    column("text", (r) => r.externalId),
    column("int", (r) => r.wallet?.index ?? null),
    column("text", (r) => r.wallet?.address ?? null),
  ];
  const request = tx.$with("request", {}).as(sql`
    select * from unnest(${sql.join(columns, sql`, `)}) with ordinality
      as r(collectible_id, holder_id, email, external_id, wallet_index, wallet_address, ord)`);
  // The supplies are decided under the collectibles' row locks: a transaction waiting here
  // reads the rows as the one before it left them. No key update (the lock the supply's update
  // takes anyway): a confirmation's key share on a collectible neither waits for it nor blocks it.
  const locked = tx.$with("locked", {}).as(sql`
    select ${collectibles.id} as id, ${collectibles.organizationId} as organization_id,
      ${collectibles.status} as status,
      ${collectibles.totalCount} - ${collectibles.reservedCount} as places_left
    from ${collectibles}
    where ${collectibles.id} in (select collectible_id from request) and ${visibleCollectible(scope)}
    order by ${collectibles.id}
    for no key update`);
  const placed = tx.$with("placed", {}).as(sql`
    select r.*, l.organization_id
    from (select *, row_number() over (partition by collectible_id order by ord) as place
          from request) r
    join locked l on l.id = r.collectible_id
    where l.status <> 'failed' and r.place <= l.places_left`);
  // Each email is looked up in the index of emails on its own (`lateral … limit 1`): given the
  // pairs as a list (`(organization, email) in (…)`), or joined as a table, PostgreSQL scanned
  // every user while the table had no statistics yet (a new database's first burst): 25 ms for
  // 33 pairs among 5,000 users as a list, 1.4 ms joined, 0.08 ms looked up.
  const found = tx.$with("found", {}).as(sql`
    select p.ord, u.id, u.organization_id, u.email, u.wallet_index, u.wallet_address,
      u.linked_wallet
    from placed p join ${users} u on u.id = p.holder_id
    where u.organization_id = p.organization_id and u.is_active
    union all
    select p.ord, u.id, u.organization_id, u.email, u.wallet_index, u.wallet_address,
      u.linked_wallet
    from placed p cross join lateral (
      select * from ${users} u
      where u.organization_id = p.organization_id and lower(u.email) = lower(p.email)
        and u.is_active
      limit 1
    ) u
    where p.holder_id is null`);
  // One user per email (letter case aside), with the first request's wallet.
  const made = tx.$with("made", {}).as(sql`
    insert into ${users} (organization_id, email, wallet_index, wallet_address)
    select distinct on (p.organization_id, lower(p.email))
      p.organization_id, p.email, p.wallet_index, p.wallet_address
    from placed p
    where p.holder_id is null and not exists (select 1 from found f where f.ord = p.ord)
    order by p.organization_id, lower(p.email), p.ord
    on conflict do nothing
    returning id, organization_id, email, wallet_index, wallet_address, linked_wallet`);
  const holder = tx.$with("holder", {}).as(sql`
    select f.*, p.collectible_id, p.external_id, false as created
    from found f join placed p on p.ord = f.ord
    union all
    select p.ord, m.*, p.collectible_id, p.external_id, true
    from placed p join made m
      on m.organization_id = p.organization_id and lower(m.email) = lower(p.email)
    where p.holder_id is null`);
  // In arrival order, so the first request for a holder has the claim.
  const inserted = tx.$with("inserted", getTableColumns(claims)).as(sql`
    insert into ${claims} (collectible_id, holder_id, minted_to, holder_email, external_id)
    select h.collectible_id, h.id,
      case when o.claims_to_linked_wallet then coalesce(h.linked_wallet, h.wallet_address)
           else h.wallet_address end,
      h.email, h.external_id
    from holder h join ${organizations} o on o.id = h.organization_id
    order by h.ord
    on conflict do nothing
    returning *`);
  const placesTaken = tx.$with("places_taken", {}).as(sql`
    update ${collectibles} set
      reserved_count = reserved_count + taken.count, updated_at = now()
    from (select collectible_id, count(*) as count from inserted group by collectible_id) taken
    where ${collectibles.id} = taken.collectible_id`);
  const claimFields = Object.fromEntries(
    Object.keys(getTableColumns(claims)).map((key) => [
      key,
      inserted[key as keyof typeof inserted],
    ]),
  ) as unknown as typeof inserted._.selectedFields;
  const rows = await tx
    .with(request, locked, placed, found, made, holder, inserted, placesTaken)
    .select({
      ord: sql<number>`holder.ord`.mapWith(Number),
      holderId: sql<string>`holder.id`,
      organizationId: sql<string>`holder.organization_id`,
      created: sql<boolean>`holder.created`,
      walletIndex: sql<number | null>`holder.wallet_index`,
      claim: claimFields,
    })
    .from(sql`holder`)
    .leftJoin(
      inserted,
      sql`${inserted.collectibleId} = holder.collectible_id and ${inserted.holderId} = holder.id`,
    )
    .orderBy(sql`holder.ord`);
  return rows.map(({ ord, claim, ...row }) => ({
    ...row,
    request: ord - 1,
    claim: claim?.id ? (claim as ClaimRow) : null,
  }));
}

/** Gives back the places of claims this transaction inserted and then refused, and removes them. */
export async function deleteNewClaims(q: Queryable, refused: ClaimRow[]): Promise<void> {
  if (refused.length === 0) return;
  const perCollectible = new Map<string, number>();
  for (const { collectibleId } of refused) {
    perCollectible.set(collectibleId, (perCollectible.get(collectibleId) ?? 0) + 1);
  }
  for (const [id, count] of perCollectible) {
    await q
      .update(collectibles)
      .set({ reservedCount: sql`${collectibles.reservedCount} - ${count}`, updatedAt: sql`now()` })
      .where(eq(collectibles.id, id));
  }
  await q.delete(claims).where(
    inArray(
      claims.id,
      refused.map((claim) => claim.id),
    ),
  );
}

/** Removes users the group created and no longer needs (nothing refers to them yet). */
export async function deleteNewUsers(q: Queryable, ids: string[]): Promise<void> {
  if (ids.length > 0) await q.delete(users).where(inArray(users.id, ids));
}
