/** /webhooks: where the service sends events, signed, and what became of each delivery. */
import { type Endpoint, implement } from "../../http/endpoint.ts";
import { JSON_BODY, listing, resourceEndpoints } from "../../http/resourceEndpoints.ts";
import { presentDelivery, presentWebhook } from "../../presenters/webhook.ts";
import { DeletedResponse, IdParams, listEnvelope } from "../../schemas/common.ts";
import {
  CreateWebhookBody,
  DeliveriesQuery,
  Delivery,
  ResendBody,
  UpdateWebhookBody,
  Webhook,
  WebhookWithSecret,
} from "../../schemas/webhooks.ts";
import { z } from "../../schemas/zod.ts";
import * as service from "../../services/webhooks.ts";

const base = { tag: "Webhooks", auth: "apiKey" } as const;
/** Only get and update follow the conventions: the others answer secrets, deletions, deliveries. */
const webhooks = resourceEndpoints("Webhook", "Webhooks", Webhook);
const one = (schema: z.ZodType, description: string) => ({
  description,
  schema: z.strictObject({ data: schema }),
});

const withSecret = (row: Awaited<ReturnType<typeof service.create>>) => ({
  ...presentWebhook(row),
  secret: row.secret,
});

/** An answer that shows a secret: no cache, shared or the client's, may keep it. */
const SECRET_ANSWER = { "Cache-Control": "no-store" };

export const webhookEndpoints: readonly Endpoint[] = [
  implement(
    {
      ...base,
      operationId: "createWebhook",
      method: "post",
      path: "/webhooks",
      summary: "Send events of an organization's subtree to a URL, signed (Standard Webhooks)",
      description:
        "The answer holds the signing secret, the only time it is shown. Private, loopback and link-local destinations are refused (400 destination_not_allowed) unless the operator allows them.",
      body: { ...JSON_BODY, schema: CreateWebhookBody },
      // It carries the signing secret: no cache may keep it.
      responses: { 201: { ...one(WebhookWithSecret, "Created"), headers: ["Cache-Control"] } },
      errors: [404],
    },
    async ({ auth, body }, deps) => ({
      status: 201,
      body: { data: withSecret(await service.create(deps, auth, body)) },
      headers: SECRET_ANSWER,
    }),
  ),

  implement(
    {
      ...base,
      operationId: "deleteWebhook",
      method: "delete",
      path: "/webhooks/{id}",
      summary: "Delete a webhook: nothing more is sent to it",
      params: IdParams,
      responses: { 200: { description: "Deleted", schema: DeletedResponse } },
      errors: [404],
    },
    async ({ auth, params }, deps) => {
      await service.remove(deps, auth, params.id);
      return { status: 200, body: { data: { id: params.id, deleted: true as const } } };
    },
  ),

  implement(webhooks.get("Get a webhook"), async ({ auth, params }, deps) => ({
    status: 200,
    body: { data: presentWebhook(await service.get(deps, auth, params.id)) },
  })),

  implement(
    {
      ...base,
      operationId: "listWebhookDeliveries",
      method: "get",
      path: "/webhooks/{id}/deliveries",
      summary: "The webhook's deliveries, a page at a time: attempts, status codes, next retry",
      description:
        "Paged as the resource lists (organizations, users, collectibles, claims), oldest first: follow pagination.next_cursor with ?cursor=. For the latest, filter with updated_since (and status=failed for what to look at).",
      params: IdParams,
      query: DeliveriesQuery,
      responses: {
        200: {
          description: "A page of deliveries, oldest first",
          schema: listEnvelope(Delivery),
        },
      },
      errors: [404],
    },
    (input, deps) =>
      listing(
        (deps, scope, query) => service.deliveries(deps, scope, input.params.id, query),
        presentDelivery,
      )(input, deps),
  ),

  implement(
    {
      ...base,
      operationId: "listWebhooks",
      method: "get",
      path: "/webhooks",
      summary: "List the webhooks the key sees (never their secrets)",
      responses: {
        200: { description: "Every webhook", schema: z.strictObject({ data: z.array(Webhook) }) },
      },
    },
    async ({ auth }, deps) => ({
      status: 200,
      body: { data: (await service.list(deps, auth)).map(presentWebhook) },
    }),
  ),

  implement(
    {
      ...base,
      operationId: "resendWebhook",
      method: "post",
      path: "/webhooks/{id}/resend",
      summary: "Send a settled delivery again, or every settled delivery of events since a time",
      params: IdParams,
      body: { ...JSON_BODY, schema: ResendBody },
      responses: {
        202: {
          description: "Queued: the sender picks them up within a second",
          schema: z.strictObject({ data: z.strictObject({ queued: z.number().int() }) }),
        },
      },
      errors: [404],
    },
    async ({ auth, params, body }, deps) => ({
      status: 202,
      body: { data: { queued: await service.resend(deps, auth, params.id, body) } },
    }),
  ),

  implement(
    {
      ...base,
      operationId: "rotateWebhookSecret",
      method: "post",
      path: "/webhooks/{id}/rotate-secret",
      summary: "Replace the signing secret; the old one keeps signing beside it for 24 hours",
      params: IdParams,
      responses: {
        200: {
          ...one(WebhookWithSecret, "The new secret, shown only here"),
          headers: ["Cache-Control"],
        },
      },
      errors: [404],
    },
    async ({ auth, params }, deps) => ({
      status: 200,
      body: { data: withSecret(await service.rotateSecret(deps, auth, params.id)) },
      headers: SECRET_ANSWER,
    }),
  ),

  implement(
    webhooks.update({
      summary: "Change a webhook's URL, event types, description, or enable or disable it",
      body: { ...JSON_BODY, schema: UpdateWebhookBody },
      errors: [404],
    }),
    async ({ auth, params, body }, deps) => ({
      status: 200,
      body: { data: presentWebhook(await service.update(deps, auth, params.id, body)) },
    }),
  ),
];
