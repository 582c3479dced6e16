/**
 * Every not-found, conflict and refusal the API answers, in one place: codes and messages stay
 * the same wherever the rule is checked, and a reader finds all of them here.
 */
import { uniqueViolation } from "./db/driver/pgError.ts";
import {
  ConflictError,
  type ErrorDetail,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  UnprocessableError,
  ValidationError,
} from "./errors.ts";

type Kind = "organization" | "user" | "collectible" | "claim" | "API key" | "webhook" | "delivery";

/**
 * No `kind` with this id (or none the key may see). With `field`, the id came from that body
 * field; `scope` says where it was looked for ("in the organization").
 */
export function notFound(kind: Kind, id: string, field?: string, scope?: string): NotFoundError {
  const where = scope ? ` ${scope}` : "";
  const code = `${kind.toLowerCase().replaceAll(" ", "_")}_not_found`;
  if (!field) return new NotFoundError(code, `No ${kind} ${id}`);
  return new NotFoundError(code, `${field}: no ${kind} ${id}${where}`, [
    { field, code: "not_found", message: `no such ${kind}${where}` },
  ]);
}

export const parentNotFound = (id: string) =>
  aboutField(NotFoundError, [
    "parent_not_found",
    "parent_id",
    `no organization ${id}`,
    "no such organization",
    "not_found",
  ]);

export const readOnlyKey = () =>
  new ForbiddenError("read_only_key", "This API key is read-only: it may only read (GET)");

/** `what` needs a key not limited to an organization: "Managing API keys", "Reading metrics". */
export const adminKeyRequired = (what: string) =>
  new ForbiddenError(
    "admin_key_required",
    `${what} needs an admin key: one not limited to an organization`,
  );

export function imageNotFound(): NotFoundError {
  return new NotFoundError("image_not_found", "No such image");
}

export function routeNotFound(method: string, path: string): NotFoundError {
  return new NotFoundError("route_not_found", `No route ${method} ${path}`);
}

export function soldOut(total: number): ConflictError {
  return new ConflictError("sold_out", `The collectible is sold out (all ${total} claimed)`, [
    { field: "collectible_id", code: "sold_out", message: "no edition left" },
  ]);
}

export function alreadyClaimed(): ConflictError {
  return new ConflictError("already_claimed", "This holder has already claimed the collectible", [
    { field: "holder_id", code: "already_claimed", message: "claimed before" },
  ]);
}

export function organizationNotEmpty(
  id: string,
  contents: { organizations: number; users: number },
): ConflictError {
  return new ConflictError(
    "organization_not_empty",
    `Organization ${id} still has ${contents.organizations} active sub-organizations and ` +
      `${contents.users} active users; delete or move them first`,
    [{ message: "not empty", ...contents }],
  );
}

type ErrorClass<E> = new (code: string, message: string, details?: ErrorDetail[]) => E;

/** A refusal about one field: the message names the field, the detail says why in short. */
function aboutField<E>(
  Class: ErrorClass<E>,
  [code, field, message, why, detailCode = code]: [string, string, string, string, string?],
): E {
  return new Class(code, `${field}: ${message}`, [{ field, code: detailCode, message: why }]);
}

export const parentRequired = () =>
  aboutField(UnprocessableError, [
    "parent_required",
    "parent_id",
    "a key scoped to an organization can only place organizations inside its scope",
    "required for a scoped key",
  ]);

export const parentCycle = () =>
  aboutField(UnprocessableError, [
    "parent_cycle",
    "parent_id",
    "the organization would become its own ancestor",
    "would make a cycle",
  ]);

export const collectibleFailed = () =>
  aboutField(UnprocessableError, [
    "collectible_failed",
    "collectible_id",
    "the collectible could not be created on-chain",
    "creation failed",
  ]);

export function claimFailed(claimId: string, reason: string): UnprocessableError {
  return new UnprocessableError("claim_failed", `The chain refused claim ${claimId}: ${reason}`, [
    { field: "holder_id", code: "claim_failed", message: reason, claim_id: claimId },
  ]);
}

export const idempotencyKeyReused = () =>
  aboutField(UnprocessableError, [
    "idempotency_key_reused",
    "Idempotency-Key",
    "this key was used for a different request; use a new key",
    "used for another request",
    "reused",
  ]);

export function chainNotConfigured(): ServiceUnavailableError {
  return new ServiceUnavailableError(
    "chain_not_configured",
    "This API runs without a chain (RPC_URL is not set): collectibles and claims cannot be created",
  );
}

const ADDRESS_TAKEN =
  "another active user of the organization has this address, as their wallet_address or their linked wallet";

/**
 * The 409 for linking an address another active user of the organization has, as their
 * wallet_address or their linked wallet: the address is the signed message's.
 */
export const linkedAddressTaken = () =>
  new ConflictError("duplicate_wallet_address", `message: ${ADDRESS_TAKEN}`, [
    { field: "message", code: "duplicate_wallet_address", message: ADDRESS_TAKEN },
  ]);

/** What each unique index protects, as the 409 a client understands. */
const UNIQUE_CONFLICTS: Record<
  string,
  Required<Pick<ErrorDetail, "code" | "field">> & ErrorDetail
> = {
  organizations_parent_external_id_unique: {
    code: "duplicate_external_id",
    field: "external_id",
    message: "another active organization with the same parent has this external_id",
  },
  users_organization_email_unique: {
    code: "duplicate_email",
    field: "email",
    message: "another active user of the organization has this email (case-insensitive)",
  },
  users_organization_external_id_unique: {
    code: "duplicate_external_id",
    field: "external_id",
    message: "another active user of the organization has this external_id",
  },
  users_organization_wallet_unique: {
    code: "duplicate_wallet_address",
    field: "wallet_address",
    message: ADDRESS_TAKEN,
  },
  // Either of a user's addresses, kept by triggers (migration 0020, db/walletSchema.ts).
  user_addresses_pkey: {
    code: "duplicate_wallet_address",
    field: "wallet_address",
    message: ADDRESS_TAKEN,
  },
  collectibles_organization_external_id_unique: {
    code: "duplicate_external_id",
    field: "external_id",
    message: "another collectible of the organization has this external_id",
  },
  claims_collectible_external_id_unique: {
    code: "duplicate_external_id",
    field: "external_id",
    message: "another claim of the collectible has this external_id",
  },
  claims_collectible_holder_unique: {
    code: "already_claimed",
    field: "holder_id",
    message: "this holder has already claimed the collectible",
  },
  claims_collectible_holder_email_unique: {
    code: "already_claimed",
    field: "email",
    message: "a user with this email has already claimed the collectible",
  },
};

/** The 409 for a unique-index violation; any other error is returned unchanged. */
export function asConflict(error: unknown): unknown {
  const constraint = uniqueViolation(error);
  const conflict = constraint === undefined ? undefined : UNIQUE_CONFLICTS[constraint];
  if (!conflict) return error;
  return new ConflictError(conflict.code, `${conflict.field}: ${conflict.message}`, [
    { field: conflict.field, code: conflict.code, message: conflict.message },
  ]);
}

/** A webhook URL the service may not call (see webhooks/destination.ts). */
export function destinationRefused(reason: string): ValidationError {
  return new ValidationError(
    `url: ${reason}; webhooks may only call public addresses (see WEBHOOK_ALLOW_PRIVATE_DESTINATIONS)`,
    [{ field: "url", code: "destination_not_allowed", message: reason }],
    "destination_not_allowed",
  );
}

/**
 * Why a wallet-link proof or a move home is refused (422), naming the field at fault:
 * `nonce_unknown`, `nonce_used` (a replay), `nonce_expired`, `wrong_domain`, `wrong_chain`,
 * `wrong_address` (not the address the nonce was issued for), `wrong_signer` (the signature is
 * not by the message's address), `no_linked_wallet`, `no_service_wallet`,
 * `token_not_in_service_wallet`.
 */
export function walletRefusal(code: string, field: string, message: string): UnprocessableError {
  return new UnprocessableError(code, `${field}: ${message}`, [{ field, code, message }]);
}

/** A wallet-link message that is not an EIP-4361 message with every field a proof needs. */
export const siweMessageInvalid = (missing: string) =>
  new ValidationError(
    `message: not a Sign-In with Ethereum message (${missing}); sign the message POST /users/{id}/wallet-link-nonces answered, unchanged`,
    [{ field: "message", code: "siwe_message_invalid", message: missing }],
    "siwe_message_invalid",
  );
