/** /webhooks handlers: validated input in, one service call, the presented answer out. */
import { implement } from "../../http/endpoint.ts";
import { presentDelivery, presentWebhook } from "../../presenters/webhook.ts";
import * as webhooks from "../../services/webhooks.ts";
import { listing } from "../resourceHandlers.ts";
import * as routes from "./webhooks.routes.ts";

const withSecret = (row: Awaited<ReturnType<typeof webhooks.create>>) => ({
  ...presentWebhook(row),
  secret: row.secret,
});

/** An answer that shows a secret: no cache, shared or the client's, may keep it. */
const SECRET_ANSWER = { "Cache-Control": "no-store" };

export const webhookEndpoints = [
  implement(routes.listWebhooks, async ({ auth }, deps) => ({
    status: 200,
    body: { data: (await webhooks.list(deps, auth)).map(presentWebhook) },
  })),
  implement(routes.createWebhook, async ({ auth, body }, deps) => ({
    status: 201,
    body: { data: withSecret(await webhooks.create(deps, auth, body)) },
    headers: SECRET_ANSWER,
  })),
  implement(routes.getWebhook, async ({ auth, params }, deps) => ({
    status: 200,
    body: { data: presentWebhook(await webhooks.get(deps, auth, params.id)) },
  })),
  implement(routes.updateWebhook, async ({ auth, params, body }, deps) => ({
    status: 200,
    body: { data: presentWebhook(await webhooks.update(deps, auth, params.id, body)) },
  })),
  implement(routes.deleteWebhook, async ({ auth, params }, deps) => {
    await webhooks.remove(deps, auth, params.id);
    return { status: 200, body: { data: { id: params.id, deleted: true as const } } };
  }),
  implement(routes.rotateWebhookSecret, async ({ auth, params }, deps) => ({
    status: 200,
    body: { data: withSecret(await webhooks.rotateSecret(deps, auth, params.id)) },
    headers: SECRET_ANSWER,
  })),
  implement(routes.listWebhookDeliveries, (input, deps) =>
    listing(
      (deps, scope, query) => webhooks.deliveries(deps, scope, input.params.id, query),
      presentDelivery,
    )(input, deps),
  ),
  implement(routes.resendWebhook, async ({ auth, params, body }, deps) => ({
    status: 202,
    body: { data: { queued: await webhooks.resend(deps, auth, params.id, body) } },
  })),
];
