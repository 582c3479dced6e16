/**
 * The tenancy rule: a key scoped to an organization sees that organization and its descendants
 * only; an unscoped key sees everything. Every query module builds its visibility from here, so
 * the rule is written once.
 */
import { and, inArray, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Scope } from "../domain/auth.ts";
import { claims, collectibles, organizations } from "./schema.ts";

/**
 * The scope of a prepared statement: a scoped one takes the organization as its `scope` value
 * when run (placeholders stand in for values in Drizzle's types, hence the cast).
 */
export function preparedScope(scoped: boolean): Scope {
  return { organizationId: scoped ? (sql.placeholder("scope") as unknown as string) : null };
}

/** Restricts `column` (an organization id) to the scope's subtree; undefined when unscoped. */
export function scopeCondition(scope: Scope, column: AnyPgColumn): SQL | undefined {
  if (!scope.organizationId) return undefined;
  return sql`${column} in (
    with recursive subtree(id) as (
      select ${scope.organizationId}::uuid
      union
      select child.id from organizations child join subtree on child.parent_id = subtree.id
    )
    select id from subtree
  )`;
}

/**
 * Rows whose flag `column` is set, written into the query rather than sent as a value: a list
 * page's statement is planned once for all the values it runs with, and such a plan can use an
 * index of active rows only (`where is_active`) when the query itself says the row is active.
 */
export const isSet = (column: AnyPgColumn): SQL => sql`${column}`;

/** Active organizations inside the scope. */
export function visibleOrganization(scope: Scope): SQL | undefined {
  return and(isSet(organizations.isActive), scopeCondition(scope, organizations.id));
}

/** Active collectibles of an active organization inside the scope (claims are seen through them). */
export function visibleCollectible(scope: Scope): SQL | undefined {
  return and(
    isSet(collectibles.isActive),
    sql`exists (select 1 from ${organizations} where ${organizations.id} = ${collectibles.organizationId} and ${organizations.isActive})`,
    scopeCondition(scope, collectibles.organizationId),
  );
}

/** Claims of the collectibles the scope sees. */
export function visibleClaim(scope: Scope): SQL {
  return inArray(
    claims.collectibleId,
    sql`(select ${collectibles.id} from ${collectibles} where ${visibleCollectible(scope)})`,
  );
}
