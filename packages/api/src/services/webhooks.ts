/**
 * Webhooks: a destination URL for the events of an organization's subtree (every event for an
 * admin's webhook), signed with a secret the service makes and shows once. Keys see and manage
 * the webhooks of their own subtree, like every other object.
 */

import type { ListQuery } from "../db/driver/recordReads.ts";
import { findOrganization } from "../db/organizations.ts";
import {
  findWebhook,
  hasDelivery,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  resendDeliveries,
  updateWebhook,
  type WebhookRow,
} from "../db/webhooks.ts";
import type { RouteDeps } from "../deps.ts";
import type { Scope } from "../domain/auth.ts";
import type { EventType } from "../domain/events.ts";
import { destinationRefused, notFound } from "../errorCatalogue.ts";
import { checkDestination, DestinationRefused } from "../webhooks/destination.ts";
import { newWebhookSecret } from "../webhooks/signature.ts";

/** How long the secret before a rotation still signs deliveries, so receivers can switch over. */
const ROTATION_GRACE_MS = 24 * 3_600_000;

export interface WebhookInput {
  url: string;
  event_types: EventType[];
  description?: string | null;
  enabled?: boolean;
  organization_id?: string;
}

async function allowedDestination(deps: RouteDeps, url: string): Promise<void> {
  try {
    await checkDestination(new URL(url), deps.config.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS);
  } catch (error) {
    if (error instanceof DestinationRefused) throw destinationRefused(error.message);
    throw error;
  }
}

export async function create(
  deps: RouteDeps,
  scope: Scope,
  input: WebhookInput,
): Promise<WebhookRow & { secret: string }> {
  const organizationId = input.organization_id ?? scope.organizationId;
  if (organizationId && !(await findOrganization(deps.db, organizationId, scope))) {
    throw notFound("organization", organizationId, "organization_id");
  }
  await allowedDestination(deps, input.url);
  return insertWebhook(deps.db, {
    organizationId,
    url: input.url,
    eventTypes: input.event_types,
    description: input.description ?? null,
    enabled: input.enabled ?? true,
    secret: newWebhookSecret(),
  });
}

export const list = (deps: RouteDeps, scope: Scope) => listWebhooks(deps.db, scope);

export async function get(deps: RouteDeps, scope: Scope, id: string): Promise<WebhookRow> {
  const row = await findWebhook(deps.db, id, scope);
  if (!row) throw notFound("webhook", id);
  return row;
}

async function change(
  deps: RouteDeps,
  scope: Scope,
  id: string,
  values: Parameters<typeof updateWebhook>[3],
): Promise<WebhookRow> {
  const row = await updateWebhook(deps.db, scope, id, values);
  if (!row) throw notFound("webhook", id);
  return row;
}

export async function update(
  deps: RouteDeps,
  scope: Scope,
  id: string,
  input: Partial<Omit<WebhookInput, "organization_id">>,
): Promise<WebhookRow> {
  if (input.url !== undefined) await allowedDestination(deps, input.url);
  return change(deps, scope, id, {
    url: input.url,
    eventTypes: input.event_types,
    description: input.description,
    enabled: input.enabled,
    // Enabled again by a person: the service's reason and failure streak no longer hold.
    ...(input.enabled ? { disabledReason: null, failingSince: null } : {}),
  });
}

/** Stops deliveries for good; the webhook's past deliveries stay readable to no one. */
export async function remove(deps: RouteDeps, scope: Scope, id: string): Promise<void> {
  await change(deps, scope, id, { enabled: false, deletedAt: new Date() });
}

/** A new secret, shown once; the old one keeps signing (beside it) for a day. */
export async function rotateSecret(
  deps: RouteDeps,
  scope: Scope,
  id: string,
): Promise<WebhookRow & { secret: string }> {
  const current = await get(deps, scope, id);
  return change(deps, scope, id, {
    secret: newWebhookSecret(),
    previousSecret: current.secret,
    previousSecretUntil: new Date(Date.now() + ROTATION_GRACE_MS),
  });
}

/** A page of the webhook's deliveries, if the scope sees the webhook. */
export async function deliveries(deps: RouteDeps, scope: Scope, id: string, query: ListQuery) {
  await get(deps, scope, id);
  // A key that sees the webhook sees all its deliveries.
  return listDeliveries(deps.db, { organizationId: null }, { ...query, webhook_id: id });
}

/**
 * Queues settled deliveries again: one, or every one of an event at or after `since` (pending
 * ones are on their way already). A re-sent delivery is tried at once; if that fails it is
 * retried only within WEBHOOK_RETRY_FOR_HOURS of its event, like any other.
 */
export async function resend(
  deps: RouteDeps,
  scope: Scope,
  id: string,
  which: { delivery_id?: string; since?: string },
): Promise<number> {
  await get(deps, scope, id);
  const queued = await resendDeliveries(deps.db, id, {
    deliveryId: which.delivery_id,
    since: which.since ? new Date(which.since) : undefined,
  });
  if (which.delivery_id && queued === 0 && !(await hasDelivery(deps.db, id, which.delivery_id))) {
    throw notFound("delivery", which.delivery_id);
  }
  return queued;
}
