/** Linked-wallet handlers: validated input in, one service call, the presented answer out. */
import { implement } from "../../http/endpoint.ts";
import { presentContext } from "../../presenters/context.ts";
import { presentUser } from "../../presenters/user.ts";
import { listMovesHome, moveHome } from "../../services/transfersHome.ts";
import { issueNonce, link } from "../../services/walletLink.ts";
import * as routes from "./walletLink.routes.ts";

export const walletLinkEndpoints = [
  implement(routes.createWalletLinkNonce, async ({ params, body, auth }, deps) => ({
    status: 201,
    body: { data: await issueNonce(deps, auth, params.id, body.address as `0x${string}`) },
  })),
  implement(routes.linkWallet, async ({ params, body, auth, baseUrl }, deps) => {
    const view = await link(deps, auth, params.id, body);
    return { status: 200, body: { data: presentUser(view, presentContext(deps, baseUrl)) } };
  }),
  implement(routes.createTransfersHome, async ({ params, body, auth, idempotency }, deps) => ({
    status: 202,
    body: await moveHome(deps, auth, params.id, body, idempotency),
  })),
  implement(routes.listTransfersHome, async ({ params, auth }, deps) => ({
    status: 200,
    body: await listMovesHome(deps, auth, params.id),
  })),
];
