/** Turns a unique-index violation into the 409 a client understands. */
import { uniqueViolation } from "../db/pgError.ts";
import { ConflictError } from "../errors.ts";

const CONFLICTS: Record<string, { code: string; field: string; message: string }> = {
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
    message: "another active user of the organization has this wallet_address",
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
};

/** The matching ConflictError for a unique violation; any other error is returned unchanged. */
export function asConflict(error: unknown): unknown {
  const constraint = uniqueViolation(error);
  const conflict = constraint === undefined ? undefined : CONFLICTS[constraint];
  if (!conflict) return error;
  return new ConflictError(conflict.code, `${conflict.field}: ${conflict.message}`, [
    { field: conflict.field, code: conflict.code, message: conflict.message },
  ]);
}
