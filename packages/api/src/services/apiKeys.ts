/**
 * API keys over HTTP and from the CLI, through the same functions. Only an admin key (one not
 * limited to an organization) manages keys; it can make a key for any organization's subtree,
 * read-only or not. The secret exists in clear only in the create's answer; only its hash is
 * stored. Authentication looks every key up on each request, so a revocation holds from the next
 * request on, in every API process.
 */

import { type ApiKeyInfo, createApiKey, listApiKeys, revokeApiKey } from "../db/apiKeys.ts";
import type { Database } from "../db/driver/client.ts";
import { findOrganization } from "../db/organizations.ts";
import type { AuthContext } from "../domain/auth.ts";
import { adminKeyRequired, notFound } from "../errorCatalogue.ts";

export interface NewKey {
  name: string;
  organizationId: string | null;
  readOnly: boolean;
}

/**
 * Refuses a key limited to an organization (403): it may not hand out or revoke keys, nor read
 * what spans every organization; `what` names the action in the answer.
 */
export function requireAdmin(
  auth: Pick<AuthContext, "organizationId">,
  what = "Managing API keys",
): void {
  if (auth.organizationId !== null) throw adminKeyRequired(what);
}

export async function createKey(
  db: Database,
  { name, organizationId, readOnly }: NewKey,
): Promise<ApiKeyInfo & { key: string }> {
  if (organizationId) {
    const organization = await findOrganization(db, organizationId, { organizationId: null });
    if (!organization) throw notFound("organization", organizationId, "organization_id");
  }
  const { key, info } = await createApiKey(db, { name, organizationId, readOnly });
  return { ...info, key };
}

export const listKeys = (db: Database): Promise<ApiKeyInfo[]> => listApiKeys(db);

/** Revokes an active key: answers it, or 404 when there is no active key with that id. */
export async function revokeKey(db: Database, id: string): Promise<ApiKeyInfo> {
  const revoked = await revokeApiKey(db, id);
  if (!revoked) throw notFound("API key", id);
  return revoked;
}
