/** Linked-wallet handlers: validated input in, one service call, the presented answer out. */
import type { MoveWithToken } from "../../db/transfersHome.ts";
import { implement } from "../../http/endpoint.ts";
import { presentContext } from "../../presenters/context.ts";
import { presentTransferHome } from "../../presenters/transferHome.ts";
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
  implement(routes.createTransfersHome, async (input, deps) => {
    const ctx = presentContext(deps, input.baseUrl);
    const present = (move: MoveWithToken) => presentTransferHome(move, ctx);
    const { params, body, auth, idempotency } = input;
    return { status: 202, body: await moveHome(deps, auth, params.id, body, present, idempotency) };
  }),
  implement(routes.listTransfersHome, async ({ params, auth, baseUrl }, deps) => {
    const moves = await listMovesHome(deps, auth, params.id);
    const ctx = presentContext(deps, baseUrl);
    return { status: 200, body: { data: moves.map((move) => presentTransferHome(move, ctx)) } };
  }),
];
