/** /claims: a user receives one token of a collectible, minted to the user's wallet. */
import { type Endpoint, implement } from "../../http/endpoint.ts";
import {
  creating,
  JSON_BODY,
  listing,
  reading,
  resourceEndpoints,
} from "../../http/resourceEndpoints.ts";
import { presentClaim, presentContext } from "../../presenters/resources.ts";
import {
  CLAIM_READ_ONLY,
  Claim,
  ClaimBatchAnswer,
  CreateClaimBatchBody,
  CreateClaimBody,
  ListClaimsQuery,
} from "../../schemas/claims.ts";
import { createBatch } from "../../services/claims/claimBatch.ts";
import * as service from "../../services/claims/claims.ts";

const claims = resourceEndpoints("Claim", "Claims", Claim);

export const claimEndpoints: readonly Endpoint[] = [
  implement(
    claims.create({
      summary: "Claim one token of a collectible for a user",
      description:
        "Decides already-claimed and sold-out at once (409), stores the claim, and the relayer " +
        "mints it (claims arriving together share one batch transaction). Answers 201 once " +
        "minted and indexed, or 202 with the pending claim after CONFIRM_TIMEOUT_MS.",
      body: { ...JSON_BODY, schema: CreateClaimBody, readOnly: CLAIM_READ_ONLY },
      responses: claims.createdOnChain,
      errors: [404, 409, 422, 503],
    }),
    creating(service, presentClaim),
  ),

  implement(
    {
      operationId: "createClaimBatch",
      method: "post",
      path: "/claims/batch",
      tag: "Claims",
      summary: "Claim up to 100 tokens in one request",
      description:
        "Each item is decided as POST /claims decides it (holder or email, one per person, never " +
        "past the supply), in order, in one transaction; an item refused (sold_out, " +
        "already_claimed, an unknown collectible or holder) does not stop the others. Answers at " +
        "once with one result per item; created claims are pending and go to the relayer's " +
        "batches like single claims. An Idempotency-Key covers the whole batch.",
      auth: "apiKey",
      body: { ...JSON_BODY, schema: CreateClaimBatchBody },
      idempotent: true,
      responses: { 200: { description: "One result per item", schema: ClaimBatchAnswer } },
      errors: [503],
    },
    async ({ body, auth, baseUrl, idempotency }, deps) => {
      const ctx = presentContext(deps, baseUrl);
      const present = (view: Parameters<typeof presentClaim>[0]) => presentClaim(view, ctx);
      const answer = await createBatch(deps, auth, body.items, present, idempotency);
      return { status: 200, body: answer };
    },
  ),

  implement(claims.get("Get a claim"), reading(service.get, presentClaim)),

  implement(
    claims.list(ListClaimsQuery, "List claims visible to the key"),
    listing(service.list, presentClaim),
  ),
];
