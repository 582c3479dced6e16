/**
 * A user's linked wallet: proved with Sign-In with Ethereum, and where their tokens move home
 * from the wallet the service keeps for them.
 */
import type { MoveWithToken } from "../../db/transfersHome.ts";
import { type Endpoint, implement } from "../../http/endpoint.ts";
import { JSON_BODY } from "../../http/resourceEndpoints.ts";
import { presentContext, presentTransferHome, presentUser } from "../../presenters/resources.ts";
import { dataEnvelope, IdParams } from "../../schemas/common.ts";
import { User } from "../../schemas/users.ts";
import {
  CreateTransfersHomeBody,
  CreateWalletLinkNonceBody,
  LinkWalletBody,
  TransferHome,
  WalletLinkNonce,
} from "../../schemas/walletLink.ts";
import { z } from "../../schemas/zod.ts";
import { listMovesHome, moveHome } from "../../services/transfersHome.ts";
import { issueNonce, link } from "../../services/walletLink.ts";

const base = { tag: "Users", auth: "apiKey", params: IdParams } as const;
const Moves = z.strictObject({ data: z.array(TransferHome) });

export const walletLinkEndpoints: readonly Endpoint[] = [
  implement(
    {
      ...base,
      operationId: "createTransfersHome",
      method: "post",
      path: "/users/{id}/transfers-home",
      summary: "Move one claim's token, or all the user's tokens, to their linked wallet",
      description:
        "Stores one move per token the service's wallet holds for the user and answers them at " +
        "once (202); the relayer funds the service wallet's gas (the shortfall only) and sends " +
        "`safeTransferFrom` signed by it. Follow them with GET; the claim's holder changes and " +
        "`claim.transferred` goes out once the indexer has the transfer. A token with a move " +
        "under way is not moved twice: that move is answered.",
      body: { ...JSON_BODY, schema: CreateTransfersHomeBody },
      idempotent: true,
      responses: { 202: { description: "The moves, under way", schema: Moves } },
      errors: [404, 422, 503],
    },
    async (input, deps) => {
      const ctx = presentContext(deps, input.baseUrl);
      const present = (move: MoveWithToken) => presentTransferHome(move, ctx);
      const { params, body, auth, idempotency } = input;
      const moves = await moveHome(deps, auth, params.id, body, present, idempotency);
      return { status: 202, body: moves };
    },
  ),

  implement(
    {
      ...base,
      operationId: "createWalletLinkNonce",
      method: "post",
      path: "/users/{id}/wallet-link-nonces",
      summary: "Issue a nonce and the Sign-In with Ethereum message that proves an address",
      description:
        "The user signs `message` (EIP-4361: this API's domain and URI, the chain id, the nonce, " +
        "valid WALLET_LINK_NONCE_TTL_SECONDS, 10 minutes by default) with the wallet at `address`, " +
        "then POST /users/{id}/wallet-link. The " +
        "nonce can be used once.",
      body: { ...JSON_BODY, schema: CreateWalletLinkNonceBody },
      responses: { 201: { description: "Issued", schema: dataEnvelope(WalletLinkNonce) } },
      errors: [404],
    },
    async ({ params, body, auth }, deps) => ({
      status: 201,
      body: { data: await issueNonce(deps, auth, params.id, body.address as `0x${string}`) },
    }),
  ),

  implement(
    {
      ...base,
      operationId: "linkWallet",
      method: "post",
      path: "/users/{id}/wallet-link",
      summary: "Link the wallet that signed the message as the user's own",
      description:
        "Checks the message against the nonce issued for the user (unknown, used, expired: " +
        "nonce_unknown, nonce_used, nonce_expired), this API's domain (wrong_domain) and chain " +
        "(wrong_chain), the address the nonce was issued for (wrong_address), and the signature " +
        "(wrong_signer; a smart-contract wallet is asked through the chain, ERC-1271/6492). Then " +
        "marks the nonce used and answers the user with `linked_wallet`. An address another " +
        "active user of the organization has, as wallet_address or linked wallet, is refused " +
        "(409 duplicate_wallet_address).",
      body: { ...JSON_BODY, schema: LinkWalletBody },
      responses: { 200: { description: "Linked", schema: dataEnvelope(User) } },
      errors: [404, 409, 422],
    },
    async ({ params, body, auth, baseUrl }, deps) => {
      const view = await link(deps, auth, params.id, body);
      return { status: 200, body: { data: presentUser(view, presentContext(deps, baseUrl)) } };
    },
  ),

  implement(
    {
      ...base,
      operationId: "listTransfersHome",
      method: "get",
      path: "/users/{id}/transfers-home",
      summary: "The user's moves home, newest first (the latest 100)",
      responses: { 200: { description: "The moves", schema: Moves } },
      errors: [404],
    },
    async ({ params, auth, baseUrl }, deps) => {
      const moves = await listMovesHome(deps, auth, params.id);
      const ctx = presentContext(deps, baseUrl);
      return { status: 200, body: { data: moves.map((move) => presentTransferHome(move, ctx)) } };
    },
  ),
];
