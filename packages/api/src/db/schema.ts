/**
 * The API's tables. `drizzle-kit generate` turns changes here into SQL migrations in `drizzle/`,
 * which the API applies at start.
 *
 * Rows are never deleted: DELETE sets `is_active = false` (and `deleted_at`), so claims keep their
 * holder and the audit trail holds. Uniqueness rules apply among active rows only, so a deleted
 * user's email or a deleted organization's external_id can be used again.
 */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** Storage keys of one stored image and its variants (see `images/imageProcessor.ts`). */
export type StoredImage = {
  original: string;
  large: string;
  medium: string;
  small: string;
  thumb: string;
};

const createdAt = () =>
  timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();
const deletedAt = () => timestamp("deleted_at", { withTimezone: true, precision: 3 });

/**
 * BIP-44 address indexes (m/44'/60'/0'/0/<index>) for wallets the service derives, shared by
 * organizations and users so no two records get the same wallet. Index 0 is left unused.
 */
export const walletIndexSeq = pgSequence("wallet_index_seq", { startWith: 1, minValue: 1 });

export const organizations = pgTable(
  "organizations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description"),
    parentId: uuid("parent_id").references((): AnyPgColumn => organizations.id),
    externalId: text("external_id"),
    walletIndex: integer("wallet_index").notNull().unique("organizations_wallet_index_unique"),
    walletAddress: text("wallet_address").notNull(),
    logo: jsonb("logo").$type<StoredImage>(),
    cover: jsonb("cover").$type<StoredImage>(),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (t) => [
    index("organizations_created_at_id_idx").on(t.createdAt, t.id),
    index("organizations_parent_id_idx").on(t.parentId),
    // external_id is unique among the active children of one parent (top level counts as one
    // parent), so it identifies an organization within the place it lives.
    uniqueIndex("organizations_parent_external_id_unique")
      .on(sql`coalesce(${t.parentId}, '00000000-0000-0000-0000-000000000000'::uuid)`, t.externalId)
      .where(sql`${t.isActive} and ${t.externalId} is not null`),
  ],
);

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id),
    email: text("email").notNull(),
    name: text("name"),
    externalId: text("external_id"),
    walletAddress: text("wallet_address").notNull(),
    /** Null when the user brought their own address. */
    walletIndex: integer("wallet_index").unique("users_wallet_index_unique"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (t) => [
    index("users_created_at_id_idx").on(t.createdAt, t.id),
    index("users_organization_id_idx").on(t.organizationId),
    uniqueIndex("users_organization_email_unique")
      .on(t.organizationId, sql`lower(${t.email})`)
      .where(sql`${t.isActive}`),
    uniqueIndex("users_organization_external_id_unique")
      .on(t.organizationId, t.externalId)
      .where(sql`${t.isActive} and ${t.externalId} is not null`),
    uniqueIndex("users_organization_wallet_unique")
      .on(t.organizationId, t.walletAddress)
      .where(sql`${t.isActive}`),
  ],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** The first characters of the key, enough to recognise it in a list; not a secret. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    keyHash: text("key_hash").notNull().unique("api_keys_key_hash_unique"),
    /** When set, the key sees only this organization and its descendants. */
    organizationId: uuid("organization_id").references(() => organizations.id),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, precision: 3 }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [index("api_keys_created_at_id_idx").on(t.createdAt, t.id)],
);

/** Small facts about this installation, such as the fingerprint of the wallet mnemonic. */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: updatedAt(),
});
