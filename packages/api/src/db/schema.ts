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
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  belongsTo,
  createdAt,
  deletedAt,
  finalityColumns,
  generatedId,
  moment,
  unfinalized,
  updatedAt,
} from "./columns.ts";

/** Storage keys of one stored image and its variants (see `images/imageProcessor.ts`). */
export type StoredImage = {
  original: string;
  large: string;
  medium: string;
  small: string;
  thumb: string;
};

/**
 * BIP-44 address indexes (m/44'/60'/0'/0/<index>) for wallets the service derives, shared by
 * organizations and users so no two records get the same wallet. Index 0 is left unused.
 */
export const walletIndexSeq = pgSequence("wallet_index_seq", { startWith: 1, minValue: 1 });

export const organizations = pgTable(
  "organizations",
  {
    id: generatedId(),
    name: text("name").notNull(),
    description: text("description"),
    parentId: uuid("parent_id").references((): AnyPgColumn => organizations.id),
    externalId: text("external_id"),
    walletIndex: integer("wallet_index").notNull().unique("organizations_wallet_index_unique"),
    walletAddress: text("wallet_address").notNull(),
    /** New claims of a user with a linked wallet are minted there (not to the service's). */
    claimsToLinkedWallet: boolean("claims_to_linked_wallet").notNull().default(false),
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
    // The few deleted organizations, whose users a count of every user leaves out.
    index("organizations_inactive_idx").on(t.id).where(sql`not ${t.isActive}`),
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
    id: generatedId(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    email: text("email").notNull(),
    name: text("name"),
    externalId: text("external_id"),
    walletAddress: text("wallet_address").notNull(),
    /** Null when the user brought their own address. */
    walletIndex: integer("wallet_index").unique("users_wallet_index_unique"),
    /** An address the user proved they own (Sign-In with Ethereum): where tokens go home. */
    linkedWallet: text("linked_wallet"),
    linkedAt: moment("linked_at"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (t) => [
    // Lists: active users in page order, with the organization for the visibility check, so a
    // count or a deep page reads this index alone.
    index("users_active_page_idx")
      .on(t.createdAt, t.id, t.organizationId)
      .where(sql`${t.isActive}`),
    index("users_organization_id_idx").on(t.organizationId),
    // `updated_since` (see readers.ts).
    index("users_updated_at_idx").on(t.updatedAt),
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
    id: generatedId(),
    name: text("name").notNull(),
    /** The first characters of the key, enough to recognise it in a list; not a secret. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    keyHash: text("key_hash").notNull().unique("api_keys_key_hash_unique"),
    /** When set, the key sees only this organization and its descendants. */
    organizationId: uuid("organization_id").references(() => organizations.id),
    /** A read-only key may only read (GET): every write answers 403. */
    readOnly: boolean("read_only").notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: moment("last_used_at"),
    revokedAt: moment("revoked_at"),
  },
  (t) => [index("api_keys_created_at_id_idx").on(t.createdAt, t.id)],
);

/** Small facts about this installation, such as the fingerprint of the wallet mnemonic. */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: updatedAt(),
});

/**
 * Where a chain operation stands. `pending`: stored, being sent or mined but not yet indexed;
 * `confirmed`: mined and indexed; `failed`: the chain refused it for good (`failure_reason`).
 */
export type ChainStatus = "pending" | "confirmed" | "failed";

/**
 * Collectibles, and the durable intent to create each on-chain: a row is written before anything
 * is sent, and the relayer works from `status = 'pending'` rows, so nothing accepted is lost.
 */
export const collectibles = pgTable(
  "collectibles",
  {
    id: generatedId(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    creatorId: uuid("creator_id").references(() => users.id),
    name: text("name").notNull(),
    description: text("description"),
    mimeType: text("mime_type"),
    artwork: text("artwork"),
    cover: jsonb("cover").$type<StoredImage>(),
    externalId: text("external_id"),
    totalCount: integer("total_count").notNull(),
    /** Claims accepted and not failed: the supply decision is made on this counter, under a row lock. */
    reservedCount: integer("reserved_count").notNull().default(0),
    status: text("status").$type<ChainStatus>().notNull().default("pending"),
    transactionHash: text("transaction_hash"),
    /** Block the creation was mined in; set before `confirmed` (which waits for the indexer). */
    minedBlock: bigint("mined_block", { mode: "bigint" }),
    ...finalityColumns(),
    failureReason: text("failure_reason"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("collectibles_created_at_id_idx").on(t.createdAt, t.id),
    index("collectibles_organization_id_idx").on(t.organizationId),
    index("collectibles_pending_idx").on(t.createdAt).where(sql`${t.status} = 'pending'`),
    index("collectibles_unfinalized_idx").on(t.minedBlock).where(unfinalized(t)),
    uniqueIndex("collectibles_organization_external_id_unique")
      .on(t.organizationId, t.externalId)
      .where(sql`${t.externalId} is not null`),
  ],
);

/** Claims, and the durable intent to mint each: written with the supply decision, then sent. */
export const claims = pgTable(
  "claims",
  {
    id: generatedId(),
    collectibleId: belongsTo("collectible_id", () => collectibles.id),
    holderId: belongsTo("holder_id", () => users.id),
    /** The holder's address when the claim was made: the token is minted to it. */
    mintedTo: text("minted_to").notNull(),
    /**
     * Who holds the token after on-chain transfers, as the indexer last told (checksummed); null
     * while it has not moved from `mintedTo`. Kept by chain/transferFollower.ts for filters.
     */
    heldBy: text("held_by"),
    /** The block of the transfer behind `heldBy` (null: not moved); read again until final. */
    heldByBlock: bigint("held_by_block", { mode: "bigint" }),
    /** The token's edition, as the indexer counted it when the claim was confirmed. */
    edition: integer("edition"),
    /**
     * The holder's email when the claim was made: one claim per person holds per organization
     * and email, also after the user is deleted and created again (a new user id). Null only on
     * a second claim by one email made before this rule (kept: its token exists on-chain).
     */
    holderEmail: text("holder_email"),
    externalId: text("external_id"),
    status: text("status").$type<ChainStatus>().notNull().default("pending"),
    transactionHash: text("transaction_hash"),
    minedBlock: bigint("mined_block", { mode: "bigint" }),
    ...finalityColumns(),
    /**
     * The most claims a batch holding this claim may have: set to half a batch that held it and
     * reverted, so such a batch is split in halves until the claim at fault is alone. Null: any.
     */
    batchLimit: integer("batch_limit"),
    failureReason: text("failure_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Lists: page order with the collectible for the visibility check (see listClaims).
    index("claims_page_idx").on(t.createdAt, t.id, t.collectibleId),
    index("claims_collectible_id_idx").on(t.collectibleId),
    index("claims_holder_id_idx").on(t.holderId),
    index("claims_holder_address_idx").on(sql`lower(coalesce(${t.heldBy}, ${t.mintedTo}))`),
    index("claims_pending_idx").on(t.createdAt, t.id).where(sql`${t.status} = 'pending'`),
    index("claims_unfinalized_idx").on(t.minedBlock).where(unfinalized(t)),
    index("claims_held_by_block_idx").on(t.heldByBlock).where(sql`${t.heldByBlock} is not null`),
    // `updated_since`: what changed since a time, counted from here (see readers.ts).
    index("claims_updated_at_idx").on(t.updatedAt),
    // A holder claims a collectible at most once; a failed claim does not count.
    uniqueIndex("claims_collectible_holder_unique")
      .on(t.collectibleId, t.holderId)
      .where(sql`${t.status} <> 'failed'`),
    uniqueIndex("claims_collectible_holder_email_unique")
      .on(t.collectibleId, sql`lower(${t.holderEmail})`)
      .where(sql`${t.status} <> 'failed'`),
    uniqueIndex("claims_collectible_external_id_unique")
      .on(t.collectibleId, t.externalId)
      .where(sql`${t.externalId} is not null`),
  ],
);

/**
 * `Idempotency-Key` of POST requests (per API key). A request that creates an object writes its
 * record in the same transaction as the object (`object_location`), so a crash between the commit
 * and the answer still leaves the key pointing at what was created; the answer (status, body,
 * Location) is added once given, and replayed for a retry. Refusals are remembered the same way,
 * without an object. Records older than IDEMPOTENCY_TTL_HOURS are ignored and cleaned up.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    apiKeyId: uuid("api_key_id").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    /** Path of the object the request created; null for a refusal. */
    objectLocation: text("object_location"),
    /** Null while the first request is still being answered. */
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    responseLocation: text("response_location"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("idempotency_keys_pk").on(t.apiKeyId, t.key),
    index("idempotency_keys_created_at_idx").on(t.createdAt),
  ],
);

/** Binary column, read as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Uploaded images and their variants, when the API runs on PostgreSQL: every API process on the
 * database serves every upload (see `images/databaseImageStorage.ts`).
 */
export const images = pgTable("images", {
  key: text("key").primaryKey(),
  contentType: text("content_type").notNull(),
  data: bytea("data").notNull(),
  createdAt: createdAt(),
});
