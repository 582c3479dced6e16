/** /claims: a user receives one token of a collectible, minted to the user's wallet. */
import { defineEndpoint } from "../../http/endpoint.ts";
import { JSON_BODY, resourceEndpoints } from "../../http/resourceEndpoints.ts";
import {
  CLAIM_READ_ONLY,
  Claim,
  ClaimBatchAnswer,
  CreateClaimBatchBody,
  CreateClaimBody,
  ListClaimsQuery,
} from "../../schemas/claims.ts";

const claims = resourceEndpoints("Claim", "Claims", Claim);

export const listClaims = claims.list(ListClaimsQuery, "List claims visible to the key");

export const createClaim = claims.create({
  summary: "Claim one token of a collectible for a user",
  description:
    "Decides already-claimed and sold-out at once (409), stores the claim, and the relayer " +
    "mints it (claims arriving together share one batch transaction). Answers 201 once minted " +
    "and indexed, or 202 with the pending claim after CONFIRM_TIMEOUT_MS.",
  body: { ...JSON_BODY, schema: CreateClaimBody, readOnly: CLAIM_READ_ONLY },
  responses: claims.createdOnChain,
  errors: [404, 409, 422, 503],
});

export const getClaim = claims.get("Get a claim");

export const createClaimBatch = defineEndpoint({
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
});
